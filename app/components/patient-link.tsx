import { Link } from "~/components/ui/link";
import { cn } from "~/lib/utils";

/** A patient's name wherever it appears in a list: a link to their record (/patients/:id). */
export function PatientLink({ id, name, className }: { id: number; name: string; className?: string }) {
  return (
    <Link to={`/patients/${id}`} className={className ? cn("patient-link", className) : "patient-link"}>
      {name}
    </Link>
  );
}
