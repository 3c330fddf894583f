/** The lines an import refused, each with its messages (the file is never half-applied). */
export function ImportLineErrors({ id, errors }: { id: string; errors: ReadonlyArray<{ line: number; messages: readonly string[] }> }) {
  if (!errors.length) return null;
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="font-medium">
        Erros por linha
      </h3>
      <ul className="list-disc space-y-1 pl-5 text-sm">
        {errors.map((error) => (
          <li key={error.line}>
            Linha {error.line}: {error.messages.join("; ")}
          </li>
        ))}
      </ul>
    </section>
  );
}
