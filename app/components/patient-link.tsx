import { Link } from "react-router";
import { cn } from "~/lib/utils";

/** A patient's name wherever it appears in a list: a link to their record (/patients/:id). */
export function PatientLink({ id, name, className }: { id: number; name: string; className?: string }) {
  return (
    <Link
      to={`/patients/${id}`}
      className={cn("rounded-sm underline-offset-2 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50", className)}
    >
      {name}
    </Link>
  );
}
