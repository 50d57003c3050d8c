import type { ReactNode } from "react";
import { Logo } from "../ui/logo";
import "./tablet.css";

/** The tablet's frame: the logo and, on the right, the given actions; no links to other screens. */
export function TabletShell({ actions, children }: { actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="tablet">
      <header className="tablet-header">
        <Logo />
        {actions}
      </header>
      {children}
    </div>
  );
}
