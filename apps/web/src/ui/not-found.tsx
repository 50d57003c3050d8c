import { Link } from "react-router-dom";

/**
 * A record that is not there: removed, never there, or another practice's (the server answers all three
 * alike). Says so and offers the way back to its list.
 */
export function RecordNotFound({
  what,
  backTo,
  backLabel,
}: {
  what: string;
  backTo: string;
  backLabel: string;
}) {
  return (
    <section>
      <h1>{what} not found</h1>
      <p>This {what.toLowerCase()} does not exist or has been removed, or it belongs to another practice.</p>
      <p>
        <Link to={backTo}>{backLabel}</Link>
      </p>
    </section>
  );
}
