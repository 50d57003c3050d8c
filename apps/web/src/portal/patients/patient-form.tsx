import { useId, useState } from "react";
import { formatPhone } from "@core-care/survey-engine";
import type { Location, Patient, PatientInput } from "../../api/types";
import { EthnicitySelect, RaceSelect, SelectField, StateSelect } from "../../ui/dropdowns";
import { formText } from "../../ui/form";

/** Reads the patient form into the body of POST/PUT /api/patients (blank optional values left out). */
export function readPatientForm(form: HTMLFormElement): PatientInput {
  const data = new FormData(form);
  const text = (name: string) => formText(data, name).trim();
  const address = { street: text("street"), city: text("city"), state: text("state"), zip: text("zip") };
  const body: Record<string, unknown> = {
    firstName: text("firstName"),
    lastName: text("lastName"),
    mrn: text("mrn"),
    dob: text("dob"),
    sex: text("sex") || "U",
  };
  for (const key of ["email", "phone", "ethnicity", "race", "locationId"] as const) {
    if (text(key)) body[key] = text(key);
  }
  if (Object.values(address).some((v) => v !== "")) body.address = address;
  return body as PatientInput;
}

function Field({
  label,
  name,
  defaultValue,
  type = "text",
  required,
  autoComplete,
  onBlur,
}: {
  label: string;
  name: string;
  defaultValue?: string | undefined;
  type?: string;
  required?: boolean;
  autoComplete?: string;
  onBlur?: (e: React.FocusEvent<HTMLInputElement>) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue ?? ""}
        required={required}
        autoComplete={autoComplete ?? "off"}
        onBlur={onBlur}
      />
    </div>
  );
}

/** The patient's details form (create and edit), with phone formatting on blur (SPEC 2, 5). */
export function PatientForm({
  patient,
  locations,
  submitLabel,
  error,
  busy,
  onSubmit,
  onCancel,
}: {
  patient?: Patient | undefined;
  locations: Location[];
  submitLabel: string;
  error: string;
  busy: boolean;
  onSubmit: (input: PatientInput) => void;
  onCancel: () => void;
}) {
  const [sex, setSex] = useState(patient?.sex ?? "");
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(readPatientForm(event.currentTarget));
      }}
    >
      <p className="hint">Fields marked * are required.</p>
      <div className="form-grid">
        <Field label="First name" name="firstName" defaultValue={patient?.firstName} required />
        <Field label="Last name" name="lastName" defaultValue={patient?.lastName} required />
        <Field label="MRN" name="mrn" defaultValue={patient?.mrn} required />
        <Field label="Date of birth" name="dob" type="date" defaultValue={patient?.dob} required />
        <SelectField
          label="Sex"
          name="sex"
          required
          value={sex}
          onChange={setSex}
          options={[
            ["F", "Female"],
            ["M", "Male"],
            ["U", "Unknown"],
          ]}
        />
        <Field label="E-mail" name="email" type="email" defaultValue={patient?.email} />
        <Field
          label="Phone"
          name="phone"
          type="tel"
          defaultValue={patient?.phone}
          onBlur={(e) => {
            e.currentTarget.value = formatPhone(e.currentTarget.value);
          }}
        />
        {locations.length > 0 && (
          <SelectField
            label="Location"
            name="locationId"
            defaultValue={patient?.locationId ?? ""}
            options={locations.map((l) => [l.id, l.name])}
          />
        )}
        <div className="span-2">
          <Field label="Street" name="street" defaultValue={patient?.address?.street} />
        </div>
        <Field label="City" name="city" defaultValue={patient?.address?.city} />
        <StateSelect name="state" defaultValue={patient?.address?.state ?? ""} />
        <Field label="ZIP" name="zip" defaultValue={patient?.address?.zip} />
        <EthnicitySelect name="ethnicity" defaultValue={patient?.ethnicity ?? ""} />
        <RaceSelect name="race" defaultValue={patient?.race ?? ""} />
      </div>
      <p className="form-error" role="alert">
        {error}
      </p>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
