import { Socket } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { InboundMessage, InboundSendersBody, Patient } from "@core-care/schema";
import type { InboundHl7Config } from "../config.js";
import { frameMllp, MLLP_END, MLLP_START } from "../delivery/mllp.js";
import {
  createTestApp,
  errorFields,
  login,
  type Session,
  type TestApp,
  type TestTenant,
} from "../../test/helpers.js";

const INBOUND: InboundHl7Config = {
  port: 0,
  host: "127.0.0.1",
  maxMessageBytes: 64 * 1024,
  maxConnections: 20,
  idleTimeoutSeconds: 60,
};

/** A real MLLP client: one connection, each message answered before the next is sent. */
class MllpClient {
  private readonly socket = new Socket();
  private buffer = Buffer.alloc(0);
  private readonly frames: string[] = [];
  private waiter: (() => void) | undefined;
  readonly closed: Promise<void>;

  private constructor(port: number) {
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      let end: number;
      while ((end = this.buffer.indexOf(MLLP_END)) !== -1) {
        const start = this.buffer.indexOf(MLLP_START);
        this.frames.push(this.buffer.subarray(start + 1, end).toString("utf8"));
        this.buffer = this.buffer.subarray(end + MLLP_END.length);
      }
      this.waiter?.();
    });
    this.closed = new Promise((resolve) => this.socket.once("close", () => resolve()));
    this.socket.on("error", () => undefined);
    this.socket.connect(port, "127.0.0.1");
  }

  static async open(port: number): Promise<MllpClient> {
    const client = new MllpClient(port);
    await new Promise<void>((resolve, reject) => {
      client.socket.once("connect", () => resolve());
      client.socket.once("error", reject);
    });
    return client;
  }

  write(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  /** Sends one framed message and resolves with the ACK; rejects when the server closes instead. */
  async send(message: string | Buffer): Promise<string> {
    this.socket.write(typeof message === "string" ? frameMllp(message) : message);
    return this.next();
  }

  /** The next ACK this connection receives. */
  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const frame = this.frames.shift();
        if (frame !== undefined) {
          this.waiter = undefined;
          resolve(frame);
        }
      };
      this.waiter = check;
      void this.closed.then(() => reject(new Error("connection closed before an ACK")));
      check();
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** MSA-1 .. MSA-3 and the ERR segment's location (ERR-2) and code (ERR-3) of an ACK. */
function readAck(ack: string) {
  const segments = ack.split("\r");
  const msa = segments.find((s) => s.startsWith("MSA|"))?.split("|") ?? [];
  const err = segments.find((s) => s.startsWith("ERR|"))?.split("|");
  return {
    code: msa[1],
    controlId: msa[2],
    text: msa[3],
    errLocation: err?.[2],
    errCode: err?.[3]?.split("^")[0],
    msh: segments[0] ?? "",
  };
}

let controlSeq = 0;
const nextControlId = () => `C${Date.now().toString(36)}${(controlSeq += 1)}`;

/** The practice's one sender: its EHR's application and facility (MSH-3, MSH-4), from this machine. */
const SENDER: [string, string] = ["EPIC", "NORTH CLINIC"];
const SENDERS: InboundSendersBody = {
  senders: [{ application: "Epic", facility: "north clinic", addresses: ["127.0.0.1", "::1"] }],
  processingId: "P",
};

interface AdtOptions {
  event?: string;
  type?: string;
  facility?: string;
  /** MSH-3 and MSH-4: EPIC of NORTH CLINIC unless given. */
  sender?: [application: string, facility: string];
  processingId?: string;
  controlId: string;
  mrn: string;
  pid?: Partial<Record<number, string>>;
}

/** An ADT message as an EHR sends it (HL7 v2.5.1, US realm codes). */
function adt(o: AdtOptions): string {
  const pid: Record<number, string> = {
    1: "1",
    3: `${o.mrn}^^^EHR^MR~999-99-9999^^^SSA^SS`,
    5: "Doe^Jane^Q^^^^L",
    7: "19800214",
    8: "F",
    10: "2106-3^White^CDCREC",
    11: "12 Main St^Apt 4^Springfield^IL^62701^USA",
    13: "^PRN^PH^^^217^5551234~^NET^Internet^jane.doe@example.com",
    22: "2186-5^Not Hispanic or Latino^CDCREC",
    ...o.pid,
  };
  const fields = Array.from({ length: 31 }, (_, i) => (i === 0 ? "PID" : (pid[i] ?? "")));
  while (fields.at(-1) === "") fields.pop();
  const event = o.event ?? "A04";
  return [
    `MSH|^~\\&|${(o.sender ?? SENDER).join("|")}|CORECARE|${o.facility ?? "FAC"}|20261127010000||${o.type ?? "ADT"}^${event}^ADT_A01|${o.controlId}|${o.processingId ?? "P"}|2.5.1|||||||UNICODE UTF-8`,
    `EVN|${event}|20261127010000`,
    fields.join("|"),
    "PV1|1|O",
  ].join("\r");
}

const FACILITY = `NORTHFAC${Date.now().toString(36)}`.toUpperCase();

describe("inbound HL7 ADT over MLLP", () => {
  let t: TestApp;
  let port: number;
  let tenant: TestTenant;
  let admin: Session;

  const patientsWithMrn = async (session: Session, mrn: string): Promise<Patient[]> => {
    const response = await session.inject({
      method: "GET",
      url: `/api/patients?q=${encodeURIComponent(mrn)}`,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ items: Patient[] }>().items.filter((p) => p.mrn === mrn);
  };
  const log = async (session: Session): Promise<InboundMessage[]> => {
    const response = await session.inject({ method: "GET", url: "/api/inbound-messages?limit=200" });
    expect(response.statusCode).toBe(200);
    return response.json<{ items: InboundMessage[] }>().items;
  };
  const setSenders = async (body: InboundSendersBody) => {
    const response = await admin.inject({ method: "PUT", url: "/api/inbound-senders", payload: body });
    expect(response.statusCode).toBe(200);
    return response.json<unknown>();
  };
  const deniedEvents = async () => {
    const response = await admin.inject({
      method: "GET",
      url: "/api/audit?action=denied",
    });
    expect(response.statusCode).toBe(200);
    return response
      .json<{ items: { entity: string; ip: string | null; details: Record<string, unknown> | null }[] }>()
      .items.filter((e) => e.entity === "inbound-message");
  };
  const allPatients = async (session: Session) =>
    (await session.inject({ method: "GET", url: "/api/patients" })).json<{ items: Patient[] }>().items;

  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  });

  beforeAll(async () => {
    t = await createTestApp({ config: { inboundHl7: INBOUND, logLevel: "info" }, logStream });
    port = t.app.inboundListener!.port()!;
    tenant = await t.createTestTenant({ role: "admin" });
    admin = await login(t.app, tenant.email);
    const put = await admin.inject({
      method: "PUT",
      url: "/api/inbound-facilities",
      payload: { facilities: [{ facility: FACILITY, application: "CORECARE" }] },
    });
    expect(put.statusCode).toBe(200);
    await setSenders(SENDERS);
  });
  afterAll(async () => t.close());

  test("an A04 then an A08, each sent four times, create then update one patient, applied once each", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const a04 = adt({ controlId: nextControlId(), mrn, facility: FACILITY });
    const a08 = adt({
      event: "A08",
      controlId: nextControlId(),
      mrn,
      facility: FACILITY,
      pid: { 5: "Doe-Smith^Jane^Q^^^^L", 11: "", 13: "^PRN^PH^^^217^5559999", 22: "H" },
    });
    const client = await MllpClient.open(port);
    const first = await client.send(a04);
    expect(readAck(first).code).toBe("AA");
    // Re-sent three times: the same ACK, nothing applied again.
    for (let i = 0; i < 3; i++) expect(await client.send(a04)).toBe(first);
    const [created] = await patientsWithMrn(admin, mrn);
    expect(created).toMatchObject({
      mrn,
      lastName: "Doe",
      firstName: "Jane",
      dob: "1980-02-14",
      sex: "F",
      race: "Caucasian",
      ethnicity: "Non Hispanic or Latino",
      address: { street: "12 Main St, Apt 4", city: "Springfield", state: "IL", zip: "62701" },
      phone: "217-555-1234",
      email: "jane.doe@example.com",
    });

    const updateAck = await client.send(a08);
    expect(readAck(updateAck).code).toBe("AA");
    for (let i = 0; i < 3; i++) expect(await client.send(a08)).toBe(updateAck);
    client.close();

    const after = await patientsWithMrn(admin, mrn);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: created!.id,
      lastName: "Doe-Smith",
      ethnicity: "Hispanic or Latino",
      // An empty PID-11 leaves the address alone; PID-13 without an e-mail repetition removes it.
      address: { city: "Springfield" },
      phone: "217-555-9999",
    });
    expect(after[0]!.email).toBeUndefined();

    const rows = (await log(admin)).filter((r) => r.patientMrn === mrn);
    expect(rows.map((r) => [r.messageType, r.outcome, r.action, r.received])).toEqual([
      ["ADT^A08", "AA", "updated", 4],
      ["ADT^A04", "AA", "created", 4],
    ]);
    // The ACK echoes the control id and swaps sender and receiver.
    expect(readAck(first).controlId).toBe(rows[1]!.controlId);
    expect(readAck(first).msh).toMatch(
      new RegExp(`^MSH\\|\\^~\\\\&\\|CORECARE\\|${FACILITY}\\|EPIC\\|NORTH CLINIC\\|`),
    );
  });

  test("a bad birth date answers AE naming PID-7, and changes nothing", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const client = await MllpClient.open(port);
    const ack = readAck(
      await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY, pid: { 7: "19801345" } })),
    );
    client.close();
    expect(ack).toMatchObject({ code: "AE", errLocation: "PID^1^7^1", errCode: "102" });
    expect(ack.text).toContain("PID-7");
    expect(await patientsWithMrn(admin, mrn)).toEqual([]);
    const [row] = (await log(admin)).filter(
      (r) => r.patientMrn === mrn || r.error?.includes("PID-7") === true,
    );
    expect(row).toMatchObject({ outcome: "AE", errorField: "PID-7" });
  });

  test.each([
    ["a state that is not a US state", { 11: "1 Elm^^Paris^ZZ^75001" }, "PID^1^11^1^4"],
    ["an unknown sex", { 8: "X" }, "PID^1^8^1"],
    ["a race code the portal does not know", { 10: "9999-9^Martian^CDCREC" }, "PID^1^10^1"],
    ["a missing name on a new patient", { 5: "" }, "PID^1^5^1^2"],
  ])("%s answers AE naming the field", async (_, pid, location) => {
    const mrn = `MRN-${nextControlId()}`;
    const client = await MllpClient.open(port);
    const ack = readAck(await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY, pid })));
    client.close();
    expect(ack).toMatchObject({ code: "AE", errLocation: location });
    expect(await patientsWithMrn(admin, mrn)).toEqual([]);
  });

  test("an unknown receiving facility answers AR, an unsupported message AR naming MSH-9", async () => {
    const before = await allPatients(admin);
    const client = await MllpClient.open(port);
    const unknown = readAck(
      await client.send(adt({ controlId: nextControlId(), mrn: "X1", facility: "NOBODY" })),
    );
    expect(unknown).toMatchObject({ code: "AR", errLocation: "MSH^1^6^1", errCode: "204" });
    const oru = readAck(
      await client.send(
        adt({ controlId: nextControlId(), mrn: "X2", facility: FACILITY, type: "ORU", event: "R01" }),
      ),
    );
    expect(oru).toMatchObject({ code: "AR", errLocation: "MSH^1^9^1^1", errCode: "200" });
    const a01 = readAck(
      await client.send(adt({ controlId: nextControlId(), mrn: "X3", facility: FACILITY, event: "A01" })),
    );
    expect(a01).toMatchObject({ code: "AR", errLocation: "MSH^1^9^1^2", errCode: "201" });
    client.close();
    expect(await allPatients(admin)).toEqual(before);
  });

  test("a message from a sender the practice does not name is answered AR naming it, audited, and changes nothing", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const client = await MllpClient.open(port);
    expect(
      readAck(await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY }))).code,
    ).toBe("AA");
    const [before] = await patientsWithMrn(admin, mrn);
    const auditBefore = (await deniedEvents()).length;

    // A local process that knows the receiving facility renames the patient: refused.
    const rogueId = nextControlId();
    const rename = { 5: "Renamed^Rogue^^^^^L" };
    const rogue = readAck(
      await client.send(
        adt({
          event: "A08",
          controlId: rogueId,
          mrn,
          facility: FACILITY,
          sender: ["ROGUE", "LAB"],
          pid: rename,
        }),
      ),
    );
    expect(rogue).toMatchObject({ code: "AR", controlId: rogueId, errLocation: "MSH^1^4^1", errCode: "204" });
    expect(rogue.text).toContain("ROGUE of LAB (MSH-3, MSH-4) at 127.0.0.1");
    // The sender's facility with another application: refused naming MSH-3.
    const otherApp = readAck(
      await client.send(
        adt({
          event: "A08",
          controlId: nextControlId(),
          mrn,
          facility: FACILITY,
          sender: ["ROGUE", "NORTH CLINIC"],
          pid: rename,
        }),
      ),
    );
    expect(otherApp).toMatchObject({ code: "AR", errLocation: "MSH^1^3^1" });

    // The named sender from an address it is not allowed: refused too.
    await setSenders({ ...SENDERS, senders: [{ ...SENDERS.senders[0]!, addresses: ["10.9.9.0/24"] }] });
    const elsewhere = readAck(
      await client.send(adt({ event: "A08", controlId: rogueId, mrn, facility: FACILITY, pid: rename })),
    );
    expect(elsewhere).toMatchObject({ code: "AR", errLocation: "MSH^1^4^1" });
    expect(elsewhere.text).toContain("does not send from this address");
    await setSenders(SENDERS);

    expect((await patientsWithMrn(admin, mrn))[0]).toEqual(before);
    const denied = (await deniedEvents()).slice(0, (await deniedEvents()).length - auditBefore);
    expect(
      denied.map((e) => [e.details?.reason, e.details?.sendingApplication, e.details?.errorField]),
    ).toEqual([
      ["sender", "EPIC", "MSH-4"],
      ["sender", "ROGUE", "MSH-3"],
      ["sender", "ROGUE", "MSH-4"],
    ]);
    expect(denied.every((e) => e.ip === "127.0.0.1")).toBe(true);
    expect(JSON.stringify(denied)).not.toContain("Renamed");

    // The refusals claimed no control id: the sender's own message with the rogue's id is applied.
    const own = readAck(
      await client.send(adt({ event: "A08", controlId: rogueId, mrn, facility: FACILITY })),
    );
    expect(own).toMatchObject({ code: "AA", controlId: rogueId });
    client.close();
  });

  test("a practice with no sender named applies nothing", async () => {
    const other = await t.createTestTenant({ role: "admin" });
    const otherAdmin = await login(t.app, other.email);
    const facility = `LONE${nextControlId()}`.toUpperCase();
    expect(
      (
        await otherAdmin.inject({
          method: "PUT",
          url: "/api/inbound-facilities",
          payload: { facilities: [{ facility }] },
        })
      ).statusCode,
    ).toBe(200);
    expect((await otherAdmin.inject({ method: "GET", url: "/api/inbound-senders" })).json()).toEqual({
      senders: [],
      processingId: "P",
    });
    const client = await MllpClient.open(port);
    const ack = readAck(await client.send(adt({ controlId: nextControlId(), mrn: "LONE1", facility })));
    client.close();
    expect(ack).toMatchObject({ code: "AR", errLocation: "MSH^1^4^1" });
    expect(await allPatients(otherAdmin)).toEqual([]);
  });

  test("a training message (MSH-11 T) is answered AR by a production practice and applied by a training one", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const client = await MllpClient.open(port);
    const trainingId = nextControlId();
    const training = readAck(
      await client.send(adt({ controlId: trainingId, mrn, facility: FACILITY, processingId: "T" })),
    );
    expect(training).toMatchObject({
      code: "AR",
      controlId: trainingId,
      errLocation: "MSH^1^11^1",
      errCode: "202",
    });
    expect(training.text).toContain("processing id P");
    expect(training.msh.split("|")[10]).toBe("T");
    // MSH-11 with its processing mode (PT: T^A) is read by its first component; none at all is refused.
    const missing = readAck(
      await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY, processingId: "" })),
    );
    expect(missing).toMatchObject({ code: "AR", errLocation: "MSH^1^11^1" });
    expect(await patientsWithMrn(admin, mrn)).toEqual([]);
    expect((await deniedEvents())[0]?.details).toMatchObject({ reason: "processing-id", processingId: "" });

    await setSenders({ ...SENDERS, processingId: "T" });
    try {
      const applied = readAck(
        await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY, processingId: "T^A" })),
      );
      expect(applied.code).toBe("AA");
      const production = readAck(
        await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY })),
      );
      expect(production).toMatchObject({ code: "AR", errLocation: "MSH^1^11^1" });
    } finally {
      await setSenders(SENDERS);
    }
    client.close();
    expect(await patientsWithMrn(admin, mrn)).toHaveLength(1);
  });

  test("a batch (FHS BHS .. BTS FTS) has each message applied and answered, in a batch of ACKs", async () => {
    const ids = [nextControlId(), nextControlId(), nextControlId()];
    const mrns = ids.map((id) => `MRN-B${id}`);
    const batch = [
      `FHS|^~\\&|EPIC|NORTH CLINIC|CORECARE|${FACILITY}|20261127010000||||FILE-${ids[0]}`,
      `BHS|^~\\&|EPIC|NORTH CLINIC|CORECARE|${FACILITY}|20261127010000||||BATCH-${ids[0]}`,
      adt({ controlId: ids[0]!, mrn: mrns[0]!, facility: FACILITY }),
      adt({ controlId: ids[1]!, mrn: mrns[1]!, facility: FACILITY, pid: { 7: "19801345" } }),
      adt({ controlId: ids[2]!, mrn: mrns[2]!, facility: FACILITY }),
      "BTS|3",
      "FTS|1",
    ].join("\r");
    const client = await MllpClient.open(port);
    const answer = await client.send(batch);
    // The connection goes on after the batch.
    expect(
      readAck(await client.send(adt({ controlId: nextControlId(), mrn: mrns[0]!, facility: FACILITY }))).code,
    ).toBe("AA");
    client.close();

    const segments = answer.split("\r").filter((line) => line !== "");
    expect(segments.map((line) => line.slice(0, 3))).toEqual([
      "FHS",
      "BHS",
      "MSH",
      "MSA",
      "MSH",
      "MSA",
      "ERR",
      "MSH",
      "MSA",
      "BTS",
      "FTS",
    ]);
    expect(segments[0]!.split("|")[11]).toBe(`FILE-${ids[0]}`);
    expect(segments[1]!.split("|")[11]).toBe(`BATCH-${ids[0]}`);
    expect(
      segments.filter((line) => line.startsWith("MSA|")).map((line) => line.split("|").slice(1, 3)),
    ).toEqual([
      ["AA", ids[0]],
      ["AE", ids[1]],
      ["AA", ids[2]],
    ]);
    expect(segments.slice(-2)).toEqual(["BTS|3", "FTS|1"]);
    expect(await patientsWithMrn(admin, mrns[0]!)).toHaveLength(1);
    expect(await patientsWithMrn(admin, mrns[1]!)).toEqual([]);
    expect(await patientsWithMrn(admin, mrns[2]!)).toHaveLength(1);
  });

  test("a message over the size limit is answered AR naming the limit, and the connection goes on", async () => {
    const client = await MllpClient.open(port);
    const id = nextControlId();
    const tooLong = adt({
      controlId: id,
      mrn: "LONG",
      facility: FACILITY,
      pid: { 6: "x".repeat(INBOUND.maxMessageBytes) },
    });
    const ack = readAck(await client.send(tooLong));
    expect(ack).toMatchObject({ code: "AR", controlId: id, errLocation: "MSH^1", errCode: "104" });
    expect(ack.text).toBe(
      `The message is over this receiver's size limit of ${INBOUND.maxMessageBytes} bytes.`,
    );
    const mrn = `MRN-${nextControlId()}`;
    expect(
      readAck(await client.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY }))).code,
    ).toBe("AA");
    client.close();
    expect(await patientsWithMrn(admin, "LONG")).toEqual([]);
  });

  test("a message sent in pieces, its end block split across two of them, is read whole", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const id = nextControlId();
    const bytes = frameMllp(adt({ controlId: id, mrn, facility: FACILITY }));
    const client = await MllpClient.open(port);
    const answered = client.next();
    const cuts = [1, 2, 17, 100, bytes.length - 1];
    let at = 0;
    for (const cut of cuts) {
      client.write(bytes.subarray(at, cut));
      at = cut;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    client.write(bytes.subarray(at));
    expect(readAck(await answered)).toMatchObject({ code: "AA", controlId: id });
    client.close();
    expect(await patientsWithMrn(admin, mrn)).toHaveLength(1);
  });

  test("a CR escaped in a name (\\X0D\\) is stored as a space, never as a CR", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const client = await MllpClient.open(port);
    const ack = await client.send(
      adt({
        controlId: nextControlId(),
        mrn,
        facility: FACILITY,
        pid: { 5: "Doe\\X0D\\Smith^Jane\\X0A\\Ann^^^^^L" },
      }),
    );
    client.close();
    expect(readAck(ack).code).toBe("AA");
    const [patient] = await patientsWithMrn(admin, mrn);
    expect(patient).toMatchObject({ lastName: "Doe Smith", firstName: "Jane Ann" });
  });

  test("an ACK never echoes an MLLP block character the message carried", async () => {
    const mrn = `MRN-${nextControlId()}`;
    const id = `${nextControlId()}\u000bX\u001cY`;
    const client = await MllpClient.open(port);
    const raw = await client.send(adt({ controlId: id, mrn, facility: FACILITY }));
    client.close();
    expect(raw.includes("\u000b") || raw.includes("\u001c")).toBe(false);
    expect(readAck(raw)).toMatchObject({
      code: "AA",
      controlId: id.replace("\u000b", "\\X0B\\").replace("\u001c", "\\X1C\\"),
    });
  });

  test("senders are validated, and saved apart from the practice's other settings", async () => {
    const bad = await admin.inject({
      method: "PUT",
      url: "/api/inbound-senders",
      payload: {
        senders: [
          { application: "EPIC", facility: "A|B", addresses: ["127.0.0.1"] },
          { application: "", facility: "LAB", addresses: ["10.0.0.300", "10.0.0.0/8"] },
          { application: "LIS", facility: "LAB", addresses: [] },
          { application: "lis", facility: "lab", addresses: ["::1"] },
        ],
        processingId: "X",
      },
    });
    expect(bad.statusCode).toBe(400);
    expect([...new Set(errorFields(bad))].sort()).toEqual(
      [
        "processingId",
        "senders.0.facility",
        "senders.1.addresses.0",
        "senders.1.application",
        "senders.2.addresses",
        "senders.3.facility",
      ].sort(),
    );
    expect((await admin.inject({ method: "GET", url: "/api/inbound-senders" })).json()).toEqual(SENDERS);
    // The receiving facilities are kept when the senders change.
    expect((await admin.inject({ method: "GET", url: "/api/inbound-facilities" })).json()).toEqual({
      facilities: [{ facility: FACILITY, application: "CORECARE" }],
    });
  });

  test("garbage, broken segments, wrong encoding, an over-size message and 200 quick connections leave the server up and the data unchanged", async () => {
    const before = await allPatients(admin);
    const logBefore = await log(admin);

    const client = await MllpClient.open(port);
    expect(readAck(await client.send("hello, this is not HL7")).code).toBe("AR");
    const broken = adt({ controlId: nextControlId(), mrn: "B1", facility: FACILITY }).replace(
      "EVN|",
      "E\u0000N|",
    );
    expect(readAck(await client.send(broken))).toMatchObject({ code: "AR", errCode: "100" });
    const badDelimiters = "MSH|^^^^|EPIC|X|CORECARE|" + FACILITY + "|2026||ADT^A04|Z1|P|2.5.1";
    expect(readAck(await client.send(badDelimiters)).code).toBe("AR");
    // Latin-1 bytes in a message that declares UTF-8: AR naming MSH-18, with the control id read.
    const latinId = nextControlId();
    const latin1 = Buffer.concat([
      Buffer.from([MLLP_START]),
      Buffer.from(
        adt({ controlId: latinId, mrn: "B2", facility: FACILITY, pid: { 5: "Muñoz^José" } }),
        "latin1",
      ),
      MLLP_END,
    ]);
    expect(readAck(await client.send(latin1))).toMatchObject({
      code: "AR",
      errLocation: "MSH^1^18^1",
      controlId: latinId,
    });
    // A frame end with no start, and bytes before a start block, are read as far as they go.
    expect(readAck(await client.send(Buffer.concat([Buffer.from("\u001c\r")]))).code).toBe("AR");
    client.close();

    // Over the size limit and unended: past eight times the limit it is answered AR and closed.
    const big = await MllpClient.open(port);
    const unended = big.next();
    big.write(Buffer.concat([Buffer.from([MLLP_START]), Buffer.alloc(INBOUND.maxMessageBytes * 10, "A")]));
    expect(readAck(await unended)).toMatchObject({ code: "AR", errCode: "104" });
    await big.closed;
    // Over the size limit and ended (10 MB): answered AR naming the limit and the control id, then closed.
    const huge = await MllpClient.open(port);
    const hugeId = nextControlId();
    const tenMb = adt({
      controlId: hugeId,
      mrn: "HUGE",
      facility: FACILITY,
      pid: { 6: "x".repeat(10 * 1024 * 1024) },
    });
    const hugeAck = readAck(await huge.send(tenMb));
    expect(hugeAck).toMatchObject({ code: "AR", controlId: hugeId, errCode: "104" });
    expect(hugeAck.text).toContain(`${INBOUND.maxMessageBytes} bytes`);
    await huge.closed;

    // 200 connections at once, each leaving half a message: those past the limit are closed on arrival.
    const flood = await Promise.allSettled(
      Array.from({ length: 200 }, async () => {
        const socket = new Socket();
        socket.on("error", () => undefined);
        await new Promise<void>((resolve) => {
          socket.once("connect", () => {
            socket.write(Buffer.from([MLLP_START, 0x4d, 0x53, 0x48]));
            socket.destroy();
            resolve();
          });
          socket.once("close", () => resolve());
          socket.connect(port, "127.0.0.1");
        });
      }),
    );
    expect(flood.every((r) => r.status === "fulfilled")).toBe(true);

    // Still up: a good message is applied.
    const mrn = `MRN-${nextControlId()}`;
    const after = await MllpClient.open(port);
    expect(readAck(await after.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY }))).code).toBe(
      "AA",
    );
    after.close();
    const patientsNow = await allPatients(admin);
    expect(patientsNow.filter((p) => p.mrn !== mrn)).toEqual(before);
    // Only that message reached the log: the refused ones named no practice or could not be read.
    const logNow = await log(admin);
    expect(logNow.length).toBe(logBefore.length + 1);
  });

  test("two servers on one database given the same control id at once apply it once", async () => {
    const second = await createTestApp({ database: t.database, config: { inboundHl7: INBOUND } });
    try {
      const secondPort = second.app.inboundListener!.port()!;
      const mrn = `MRN-${nextControlId()}`;
      const message = adt({ controlId: nextControlId(), mrn, facility: FACILITY });
      const clients = await Promise.all([port, secondPort, port, secondPort].map((p) => MllpClient.open(p)));
      const acks = await Promise.all(clients.map((c) => c.send(message)));
      for (const c of clients) c.close();
      expect(new Set(acks).size).toBe(1);
      expect(readAck(acks[0]!).code).toBe("AA");
      expect(await patientsWithMrn(admin, mrn)).toHaveLength(1);
      const rows = (await log(admin)).filter((r) => r.patientMrn === mrn);
      expect(rows.map((r) => [r.outcome, r.received])).toEqual([["AA", 4]]);
    } finally {
      await second.close();
    }
  });

  test("two messages creating one new MRN at once on two servers make one patient, created then updated", async () => {
    const second = await createTestApp({ database: t.database, config: { inboundHl7: INBOUND } });
    try {
      const mrn = `MRN-${nextControlId()}`;
      const ports = [port, second.app.inboundListener!.port()!, port, second.app.inboundListener!.port()!];
      const clients = await Promise.all(ports.map((p) => MllpClient.open(p)));
      const acks = await Promise.all(
        clients.map((c) => c.send(adt({ controlId: nextControlId(), mrn, facility: FACILITY }))),
      );
      for (const c of clients) c.close();
      expect(acks.map((a) => readAck(a).code)).toEqual(["AA", "AA", "AA", "AA"]);
      expect(await patientsWithMrn(admin, mrn)).toHaveLength(1);
      const actions = (await log(admin)).filter((r) => r.patientMrn === mrn).map((r) => r.action);
      expect(actions.sort()).toEqual(["created", "updated", "updated", "updated"]);
    } finally {
      await second.close();
    }
  });

  test("the log and the facilities are the practice's own and admins' only", async () => {
    const other = await t.createTestTenant({ role: "admin" });
    const otherAdmin = await login(t.app, other.email);
    expect(await log(otherAdmin)).toEqual([]);
    const user = await t.createTestUser(tenant.tenantId, { role: "user" });
    const userSession = await login(t.app, user.email);
    expect((await userSession.inject({ method: "GET", url: "/api/inbound-messages" })).statusCode).toBe(403);
    // Another practice may not claim this practice's facility; a bad value answers 400 naming it.
    const taken = await otherAdmin.inject({
      method: "PUT",
      url: "/api/inbound-facilities",
      payload: { facilities: [{ facility: FACILITY.toLowerCase() }] },
    });
    expect(taken.statusCode).toBe(409);
    expect(errorFields(taken)).toEqual(["facilities.0.facility"]);
    const bad = await otherAdmin.inject({
      method: "PUT",
      url: "/api/inbound-facilities",
      payload: { facilities: [{ facility: "A|B" }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorFields(bad)).toEqual(["facilities.0.facility"]);
    // A system administrator's edit of a practice is held to the same rule.
    const sys = await t.createTestTenant({ role: "sysAdmin" });
    const sysSession = await login(t.app, sys.email);
    const edit = await sysSession.inject({
      method: "PUT",
      url: `/api/tenants/${other.tenantId}`,
      payload: {
        name: "Other",
        settings: { inboundFacilities: [{ facility: FACILITY, application: "CORECARE" }] },
      },
    });
    expect(edit.statusCode).toBe(409);
    expect(errorFields(edit)).toEqual(["facilities.0.facility"]);
    const mine = await admin.inject({ method: "GET", url: "/api/inbound-facilities" });
    expect(mine.json()).toEqual({ facilities: [{ facility: FACILITY, application: "CORECARE" }] });
  });

  test("the server's log says each message's outcome and none of its patient data", () => {
    const text = logLines.join("");
    expect(text).toContain('"outcome":"AA"');
    expect(text).toContain('"errorField":"PID-7"');
    for (const phi of [
      "Doe",
      "Jane",
      "jane.doe",
      "19800214",
      "1980-02-14",
      "Main St",
      "5551234",
      "MRN-",
      "Muñoz",
    ]) {
      expect(text).not.toContain(phi);
    }
  });
});
