import { Link } from "react-router-dom";
import { useServedHere } from "../routing";

/** An unknown path inside the staff portal: loaded in full, and not found once the server sent the app. */
export function UnknownRoute() {
  if (!useServedHere()) return null;
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to the start page</Link>.
      </p>
    </section>
  );
}
