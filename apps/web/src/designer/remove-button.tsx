import { useId, useState } from "react";
import { Modal } from "../ui/modal";

/**
 * A designer's Remove button that asks first: a page, section or question removed by a slip takes its
 * questions, choices and conditions with it. The dialog names what goes; Cancel keeps it.
 */
export function RemoveButton({
  label,
  what,
  consequence,
  onRemove,
  className = "button small danger",
  ariaLabel,
}: {
  /** The button's text, such as "Remove page". */
  label: string;
  /** What goes, in words: 'page 2 "About you"'. */
  what: string;
  /** What goes with it, when anything does. */
  consequence?: string;
  onRemove: () => void;
  className?: string;
  ariaLabel?: string;
}) {
  const id = useId();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className={className} aria-label={ariaLabel} onClick={() => setAsking(true)}>
        {label}
      </button>
      {asking ? (
        <Modal
          title={ariaLabel ?? label}
          onClose={() => setAsking(false)}
          describedBy={`${id}-text`}
          footer={
            <>
              <button type="button" className="button" onClick={() => setAsking(false)}>
                Cancel
              </button>
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  setAsking(false);
                  onRemove();
                }}
              >
                Remove
              </button>
            </>
          }
        >
          <p id={`${id}-text`}>
            {`Remove ${what}?`}
            {consequence ? ` ${consequence}` : ""} Until you save, the survey on the server keeps it.
          </p>
        </Modal>
      ) : null}
    </>
  );
}
