import { NavLink, Link } from "react-router-dom";
import type { Me } from "../api/types";
import { hasRole } from "../api/types";
import { Logo } from "../ui/logo";
import { TenantSwitcher } from "./tenant-switcher";

interface NavItem {
  to: string;
  label: string;
  visible: (roles: number) => boolean;
}

const NAV: NavItem[] = [
  { to: "/patients", label: "Patients", visible: () => true },
  { to: "/results", label: "Survey results", visible: () => true },
  { to: "/reports", label: "Reports", visible: () => true },
  { to: "/surveys", label: "Surveys", visible: (r) => hasRole(r, "admin") || hasRole(r, "sysAdmin") },
  { to: "/users", label: "Users", visible: (r) => hasRole(r, "admin") || hasRole(r, "sysAdmin") },
  { to: "/locations", label: "Locations", visible: (r) => hasRole(r, "admin") || hasRole(r, "sysAdmin") },
  { to: "/interfaces", label: "Interfaces", visible: (r) => hasRole(r, "admin") || hasRole(r, "sysAdmin") },
  { to: "/tenants", label: "Tenants", visible: (r) => hasRole(r, "sysAdmin") },
];

/** The staff portal frame: skip link, header with navigation, tenant and account, and the main area. */
export function Shell({ me, children }: { me: Me; children: React.ReactNode }) {
  const name = `${me.user.firstName} ${me.user.lastName}`.trim() || me.user.email;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="logo-link" aria-label="Core Care home">
          <Logo />
        </Link>
        <nav className="topnav" aria-label="Main">
          <ul>
            {NAV.filter((item) => item.visible(me.user.roles)).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-end">
          <TenantSwitcher me={me} />
          <Link to="/account" className="user-link" aria-label={`Account of ${name}`}>
            {name}
          </Link>
          <Link to="/auth/logout" className="button ghost small">
            Sign out
          </Link>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
