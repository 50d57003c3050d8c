import { PASSWORD_MIN_LENGTH } from "@core-care/schema";

/**
 * Every rule a new password must meet, stated where it is typed (NIST SP 800-63B; the server checks the
 * same): length, not common, not the e-mail's name, not built on the product's or the practice's name,
 * and typed twice alike.
 */
export function PasswordRules({ id, confirm = true }: { id: string; confirm?: boolean }) {
  return (
    <div id={id} className="hint password-rules">
      <p>A new password:</p>
      <ul>
        <li>
          has at least {PASSWORD_MIN_LENGTH} characters (spaces and any characters count; a phrase of a few
          words is easiest to remember),
        </li>
        <li>is not a common password such as "password1234567",</li>
        <li>does not contain the name part of your e-mail address,</li>
        <li>is not built on the name Core Care or your practice's name{confirm ? "," : "."}</li>
        {confirm && <li>is typed the same way twice.</li>}
      </ul>
    </div>
  );
}
