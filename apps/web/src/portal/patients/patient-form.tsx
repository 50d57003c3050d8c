import { useId, useState } from "react";
import { formatPhone } from "@core-care/survey-engine";
import type { Location, Patient, PatientInput } from "../../api/types";
import { EthnicitySelect, RaceSelect, SelectField, StateSelect } from "../../ui/dropdowns";
import { formText } from "../../ui/form";
import { FieldMessage, invalidProps, type FormFailure } from "../../ui/field-errors";

/** The fields of the form the server may name in a refusal (an address part by its dotted path). */
export const PATIENT_FIELDS = [
  "firstName",
  "lastName",
  "mrn",
  "dob",
  "email",
  "phone",
  "address.street",
  "address.city",
  "address.zip",
];

/** The languages a patient's screens and e-mails can be in; no choice means English. */
const PREFERRED_LANGUAGES = [
  ["en", "English"],
  ["es", "Spanish (Español)"],
] as const;

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
  for (const key of ["email", "phone", "ethnicity", "race", "locationId", "preferredLanguage"] as const) {
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
  error,
}: {
  label: string;
  name: string;
  error?: string | undefined;
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
        {...invalidProps(id, error)}
      />
      <FieldMessage id={id} message={error} />
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
  error: FormFailure;
  busy: boolean;
  onSubmit: (input: PatientInput) => void;
  onCancel: () => void;
}) {
  const [sex, setSex] = useState(patient?.sex ?? "");
  const field = (name: string) => error.fields[name];
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
        <Field
          label="First name"
          name="firstName"
          defaultValue={patient?.firstName}
          required
          error={field("firstName")}
        />
        <Field
          label="Last name"
          name="lastName"
          defaultValue={patient?.lastName}
          required
          error={field("lastName")}
        />
        <Field label="MRN" name="mrn" defaultValue={patient?.mrn} required error={field("mrn")} />
        <Field
          label="Date of birth"
          name="dob"
          type="date"
          defaultValue={patient?.dob}
          required
          error={field("dob")}
        />
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
        <Field
          label="E-mail"
          name="email"
          type="email"
          defaultValue={patient?.email}
          error={field("email")}
        />
        <Field
          label="Phone"
          name="phone"
          type="tel"
          defaultValue={patient?.phone}
          error={field("phone")}
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
          <Field
            label="Street"
            name="street"
            defaultValue={patient?.address?.street}
            error={field("address.street")}
          />
        </div>
        <Field label="City" name="city" defaultValue={patient?.address?.city} error={field("address.city")} />
        <StateSelect name="state" defaultValue={patient?.address?.state ?? ""} />
        <Field label="ZIP" name="zip" defaultValue={patient?.address?.zip} error={field("address.zip")} />
        <EthnicitySelect name="ethnicity" defaultValue={patient?.ethnicity ?? ""} />
        <RaceSelect name="race" defaultValue={patient?.race ?? ""} />
        <SelectField
          label="Preferred language"
          name="preferredLanguage"
          defaultValue={patient?.preferredLanguage ?? ""}
          placeholder="English (default)"
          options={PREFERRED_LANGUAGES}
        />
      </div>
      <p className="form-error" role="alert">
        {error.form}
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
