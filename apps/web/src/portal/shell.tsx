import { NavLink, Link } from "react-router-dom";
import type { Me } from "../api/types";
import type { May } from "../api/types";
import { Logo } from "../ui/logo";
import { DeliveriesNavLink } from "./deliveries/failed-count";
import { NavMenu } from "./nav-menu";
import { TenantSwitcher } from "./tenant-switcher";

interface NavItem {
  to: string;
  label: string;
  visible: (may: May) => boolean;
  /** Links of practice administration sit together behind one menu button, so the header keeps one row. */
  group?: "admin";
}

const NAV: NavItem[] = [
  { to: "/today", label: "Today", visible: () => true },
  { to: "/patients", label: "Patients", visible: () => true },
  { to: "/results", label: "Survey results", visible: () => true },
  { to: "/reports", label: "Reports", visible: () => true },
  { to: "/deliveries", label: "Deliveries", visible: () => true },
  { to: "/surveys", label: "Surveys", visible: (may) => may.editSurveys },
  { to: "/users", label: "Users", visible: (may) => may.manageUsers, group: "admin" },
  { to: "/locations", label: "Locations", visible: (may) => may.manageLocations, group: "admin" },
  { to: "/interfaces", label: "Interfaces", visible: (may) => may.manageInterfaces, group: "admin" },
  { to: "/inbound", label: "Inbound messages", visible: (may) => may.manageInbound, group: "admin" },
  { to: "/audit", label: "Audit log", visible: (may) => may.viewAudit, group: "admin" },
  { to: "/batch-upload", label: "Batch upload", visible: (may) => may.uploadBatch, group: "admin" },
  { to: "/tenants", label: "Tenants", visible: (may) => may.manageTenants, group: "admin" },
];

/** The staff portal frame: skip link, header with navigation, tenant and account, and the main area. */
export function Shell({ me, children }: { me: Me; children: React.ReactNode }) {
  const name = `${me.user.firstName} ${me.user.lastName}`.trim() || me.user.email;
  const shown = NAV.filter((item) => item.visible(me.may));
  const admin = shown.filter((item) => item.group === "admin");
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
            {shown
              .filter((item) => item.group === undefined)
              .map((item) => (
                <li key={item.to}>
                  {item.to === "/deliveries" ? (
                    <DeliveriesNavLink />
                  ) : (
                    <NavLink to={item.to}>{item.label}</NavLink>
                  )}
                </li>
              ))}
            {admin.length > 0 && <NavMenu label="Administration" entries={admin} />}
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
