import { useEffect, useId, useState } from "react";
import { api } from "../api/client";
import type { Interface, InterfaceType, ListResponse, Location } from "../api/types";
import { Modal } from "./modal";

/** The confirm modal's default question (SPEC 2). */
export const CONFIRM_TEXT = "Are you sure you want to do this?";
/** The remove-record modal's question (SPEC 2). */
export const REMOVE_TEXT = "Are you sure you want to remove this record?";

/** What the user picked in a {@link ConfirmModal}. */
export interface ConfirmChoice {
  locationId?: string;
  interfaceId?: string;
}

/** Props of {@link ConfirmModal}. */
export interface ConfirmModalProps {
  title?: string;
  text?: string;
  patientName?: string;
  withLocation?: boolean;
  interfaceType?: InterfaceType | InterfaceType[];
  buttons?: "yes-no" | "confirm-cancel";
  onConfirm: (choice: ConfirmChoice) => void;
  onClose: () => void;
}

function useList<T>(path: string | null, query?: Record<string, string>): T[] | null {
  const [items, setItems] = useState<T[] | null>(null);
  const key = JSON.stringify(query ?? {});
  useEffect(() => {
    if (!path) return;
    let live = true;
    void api.get<ListResponse<T> | T[]>(path, { query: JSON.parse(key) as Record<string, string> }).then(
      (data) => live && setItems(Array.isArray(data) ? data : data.items),
      () => live && setItems([]),
    );
    return () => {
      live = false;
    };
  }, [path, key]);
  return items;
}

/**
 * The shared confirm-action modal (SPEC 2): the question (default 'Are you sure you want to do this?'),
 * optionally the patient's name and location and interface dropdowns, and Yes/No or Confirm/Cancel.
 */
export function ConfirmModal({
  title = "Please confirm",
  text = CONFIRM_TEXT,
  patientName,
  withLocation = false,
  interfaceType,
  buttons = "yes-no",
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  const id = useId();
  const locations = useList<Location>(withLocation ? "/api/locations" : null);
  const types =
    interfaceType === undefined ? [] : Array.isArray(interfaceType) ? interfaceType : [interfaceType];
  const interfaces = useList<Interface>(types.length > 0 ? "/api/interfaces" : null);
  const shownInterfaces = interfaces?.filter((i) => types.includes(i.type)) ?? null;
  const [locationId, setLocationId] = useState("");
  const [interfaceId, setInterfaceId] = useState("");
  const [yes, no] = buttons === "yes-no" ? ["Yes", "No"] : ["Confirm", "Cancel"];
  const needsInterface = types.length > 0;
  const ready = !needsInterface || interfaceId !== "";

  return (
    <Modal
      title={title}
      onClose={onClose}
      describedBy={`${id}-text`}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {no}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={!ready}
            onClick={() => {
              const choice: ConfirmChoice = {};
              if (withLocation && locationId !== "") choice.locationId = locationId;
              if (needsInterface) choice.interfaceId = interfaceId;
              onConfirm(choice);
            }}
          >
            {yes}
          </button>
        </>
      }
    >
      <p id={`${id}-text`}>{text}</p>
      {patientName && (
        <p>
          Patient: <strong>{patientName}</strong>
        </p>
      )}
      <div className="form">
        {withLocation && (
          <div className="field">
            <label htmlFor={`${id}-location`}>Location</label>
            <select id={`${id}-location`} value={locationId} onChange={(e) => setLocationId(e.target.value)}>
              <option value="">{locations ? "No particular location" : "Loading..."}</option>
              {locations?.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {needsInterface && (
          <div className="field">
            <label htmlFor={`${id}-interface`}>Interface</label>
            <select
              id={`${id}-interface`}
              value={interfaceId}
              onChange={(e) => setInterfaceId(e.target.value)}
            >
              <option value="">{shownInterfaces ? "Choose an interface" : "Loading..."}</option>
              {shownInterfaces?.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.name}
                </option>
              ))}
            </select>
            {shownInterfaces?.length === 0 && (
              <p className="hint">No interface of this kind is set up yet.</p>
            )}
          </div>
        )}
      </div>
    </Modal>
  );
}

/**
 * The remove-record modal (SPEC 2: 'Are you sure you want to remove this record?', Yes/No), naming the
 * record, so that nobody removes the wrong one from a long list.
 */
export function RemoveRecordModal({
  record,
  onConfirm,
  onClose,
}: {
  /** The record in words, such as "Patient Hobbs, Walter (MRN D-1002)". */
  record: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const id = useId();
  return (
    <Modal
      title="Remove record"
      onClose={onClose}
      describedBy={`${id}-text ${id}-record`}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            No
          </button>
          <button type="button" className="button primary" onClick={() => onConfirm()}>
            Yes
          </button>
        </>
      }
    >
      <p id={`${id}-text`}>{REMOVE_TEXT}</p>
      <p id={`${id}-record`} className="remove-record-name">
        <strong>{record}</strong>
      </p>
    </Modal>
  );
}
