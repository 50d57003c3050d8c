import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { Logo } from "../ui/logo";

/** The frame of every sign-in screen: the logo linking to /auth and a card with the title. */
export function AuthLayout({ title, children }: { title: string; children: React.ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Core Care`;
  }, [title]);
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Link to="/auth" className="logo-link" aria-label="Core Care sign in">
          <Logo size={40} />
        </Link>
      </header>
      <main className="auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </main>
    </div>
  );
}
