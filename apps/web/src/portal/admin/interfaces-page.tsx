import { type Interface } from "../../api/types";
import { ResourcePage } from "./resource-page";
import { HostKeyCheck } from "./host-key-check";

const TYPES = [
  ["hl7-mllp", "HL7 v2 over MLLP"],
  ["cda-mllp", "CDA over MLLP"],
  ["cda-sftp", "CDA by SFTP"],
  ["sftp", "SFTP file drop"],
  ["fhir-http", "FHIR R4 over HTTPS"],
] as const;

// Named as the API names them, so a 400's field error lands beside its input.
const ACK_TIMEOUT = "settings.ackTimeoutSeconds";
const RETRY_DELAYS = "settings.retryDelaysSeconds";
const MAX_ATTEMPTS = "settings.maxAttempts";

const typeLabel = (type: string) => TYPES.find(([value]) => value === type)?.[1] ?? type;

/** Delivery interfaces of the tenant (admins). The secret is write-only. */
export default function InterfacesPage() {
  return (
    <ResourcePage<Interface>
      title="Interfaces"
      singular="Interface"
      path="/api/interfaces"
      allowed={(may) => may.manageInterfaces}
      rowLabel={(i) => i.name}
      extraAction={(i) => <HostKeyCheck iface={i} />}
      columns={[
        { key: "name", header: "Name" },
        { key: "type", header: "Type", render: (i) => typeLabel(i.type) },
        { key: "host", header: "Host" },
        { key: "port", header: "Port" },
        { key: "hasSecret", header: "Secret", render: (i) => (i.hasSecret ? "Stored" : "None") },
        {
          key: "hostKeySha256",
          header: "Host key",
          render: (i) =>
            i.type === "sftp" || i.type === "cda-sftp"
              ? i.hostKeySha256
                ? "Confirmed"
                : "Not confirmed"
              : "",
        },
      ]}
      fields={[
        { name: "name", label: "Name", required: true },
        { name: "type", label: "Type", type: "select", required: true, options: TYPES },
        { name: "host", label: "Host", required: true },
        { name: "port", label: "Port", type: "number", required: true },
        { name: "username", label: "User name" },
        { name: "path", label: "Path", hint: "Folder for SFTP, URL path for FHIR." },
        {
          name: "secret",
          label: "Secret",
          type: "password",
          hint: "Password, key or token. Blank keeps the stored one.",
        },
        {
          name: "processingId",
          label: "Processing id",
          type: "select",
          options: [
            ["P", "Production (P)"],
            ["T", "Training (T)"],
            ["D", "Debugging (D)"],
          ],
          hint: "MSH-11 of the HL7 messages sent.",
        },
        { name: "sendingApplication", label: "Sending application" },
        { name: "sendingFacility", label: "Sending facility" },
        { name: "receivingApplication", label: "Receiving application" },
        { name: "receivingFacility", label: "Receiving facility" },
        {
          name: "assigningAuthority",
          label: "MRN assigning authority",
          hint: "Who issues the practice's MRNs, in HL7 PID-3.4, CDA and FHIR. Blank: the sending facility.",
        },
        {
          name: "assigningAuthorityOid",
          label: "Assigning authority OID",
          hint: "Its ISO object identifier, such as 2.16.840.1.113883.3.72. Blank: one made for the practice.",
        },
        {
          name: ACK_TIMEOUT,
          label: "ACK timeout (seconds)",
          type: "number",
          hint: "How long to wait for the receiver's answer. Default 30.",
        },
        {
          name: RETRY_DELAYS,
          label: "Retry delays (seconds)",
          hint: "Waits between attempts, separated by commas; the last one repeats.",
        },
        {
          name: MAX_ATTEMPTS,
          label: "Last attempt",
          type: "number",
          hint: "After this attempt a message that keeps failing is marked failed. Default 10.",
        },
      ]}
      toForm={(i) => ({
        ...i,
        [ACK_TIMEOUT]: i.settings.ackTimeoutSeconds,
        [RETRY_DELAYS]: i.settings.retryDelaysSeconds.join(", "),
        [MAX_ATTEMPTS]: i.settings.maxAttempts,
      })}
      fromForm={(values) => {
        const {
          [ACK_TIMEOUT]: ackTimeout,
          [RETRY_DELAYS]: retryDelays,
          [MAX_ATTEMPTS]: maxAttempts,
          ...rest
        } = values;
        const body: Record<string, unknown> = { ...rest, port: Number(values.port) };
        for (const key of [
          "username",
          "path",
          "secret",
          "processingId",
          "assigningAuthority",
          "assigningAuthorityOid",
        ])
          if (!body[key]) delete body[key];
        const settings: Record<string, unknown> = {};
        if (ackTimeout) settings.ackTimeoutSeconds = Number(ackTimeout);
        if (typeof retryDelays === "string" && retryDelays.trim() !== "") {
          settings.retryDelaysSeconds = retryDelays.split(",").map((part) => Number(part.trim()));
        }
        if (maxAttempts) settings.maxAttempts = Number(maxAttempts);
        if (Object.keys(settings).length > 0) body.settings = settings;
        return body;
      }}
    />
  );
}
