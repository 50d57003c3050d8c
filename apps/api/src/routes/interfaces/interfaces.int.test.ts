import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Interface } from "@core-care/schema";
import { createTestApp, errorFields, login, type TestApp } from "../../../test/helpers.js";
import { startSftpPeer } from "../../../test/peers/sftp-peer.js";
import { getInterfaceWithSecret } from "../../services/interfaces.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const hl7 = {
  name: "EHR inbound",
  type: "hl7-mllp",
  host: "10.1.2.3",
  port: 2575,
  sendingApplication: "CORECARE",
  sendingFacility: "DEMO",
  receivingApplication: "EHR",
  receivingFacility: "HOSP",
};

async function signedIn(role: "user" | "admin", tenantId?: string) {
  const u =
    tenantId === undefined ? await t.createTestTenant({ role }) : await t.createTestUser(tenantId, { role });
  return { u, s: await login(t.app, u.email) };
}

describe("/api/interfaces", () => {
  test("stores the secret but never answers it", async () => {
    const { u, s } = await signedIn("admin");
    const created = await s.inject({
      method: "POST",
      url: "/api/interfaces",
      payload: { ...hl7, secret: "s3cr3t-token" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const iface = created.json<Interface>();
    expect(iface.hasSecret).toBe(true);
    expect(created.body).not.toContain("s3cr3t-token");
    const read = await s.inject({ method: "GET", url: `/api/interfaces/${iface.id}` });
    expect(read.body).not.toContain("s3cr3t-token");
    expect((await getInterfaceWithSecret(t.db, u.tenantId, iface.id)).secret).toBe("s3cr3t-token");
    const updated = await s.inject({
      method: "PUT",
      url: `/api/interfaces/${iface.id}`,
      payload: { ...hl7, name: "Renamed" },
    });
    expect(updated.json<Interface>()).toMatchObject({ name: "Renamed", hasSecret: true });
    expect((await getInterfaceWithSecret(t.db, u.tenantId, iface.id)).secret).toBe("s3cr3t-token");
  });

  test("filters the list by type for users", async () => {
    const admin = await signedIn("admin");
    const user = await signedIn("user", admin.u.tenantId);
    await admin.s.inject({ method: "POST", url: "/api/interfaces", payload: hl7 });
    await admin.s.inject({
      method: "POST",
      url: "/api/interfaces",
      payload: { ...hl7, name: "Drop", type: "sftp", port: 22, path: "/in" },
    });
    const sftp = await user.s.inject({ method: "GET", url: "/api/interfaces?type=sftp" });
    expect(sftp.json<{ items: Interface[] }>().items.map((i) => i.name)).toEqual(["Drop"]);
    expect(
      (await user.s.inject({ method: "GET", url: "/api/interfaces" })).json<{ total: number }>().total,
    ).toBe(2);
    expect(errorFields(await user.s.inject({ method: "GET", url: "/api/interfaces?type=smtp" }))).toEqual([
      "type",
    ]);
  });

  test("answers 403 to a user writing and 404 across tenants", async () => {
    const a = await signedIn("admin");
    const user = await signedIn("user", a.u.tenantId);
    const b = await signedIn("admin");
    const iface = (
      await a.s.inject({ method: "POST", url: "/api/interfaces", payload: hl7 })
    ).json<Interface>();
    expect((await user.s.inject({ method: "POST", url: "/api/interfaces", payload: hl7 })).statusCode).toBe(
      403,
    );
    expect((await user.s.inject({ method: "DELETE", url: `/api/interfaces/${iface.id}` })).statusCode).toBe(
      403,
    );
    expect((await b.s.inject({ method: "GET", url: `/api/interfaces/${iface.id}` })).statusCode).toBe(404);
    expect(
      (await b.s.inject({ method: "PUT", url: `/api/interfaces/${iface.id}`, payload: hl7 })).statusCode,
    ).toBe(404);
    expect((await b.s.inject({ method: "DELETE", url: `/api/interfaces/${iface.id}` })).statusCode).toBe(404);
    expect((await a.s.inject({ method: "DELETE", url: `/api/interfaces/${iface.id}` })).statusCode).toBe(204);
  });

  test.each([
    [{ port: 70000 }, "port"],
    [{ type: "carrier-pigeon" }, "type"],
    [{ host: "evil host; rm -rf" }, "host"],
  ])("answers 400 for %j naming %s", async (over, field) => {
    const { s } = await signedIn("admin");
    const res = await s.inject({ method: "POST", url: "/api/interfaces", payload: { ...hl7, ...over } });
    expect(errorFields(res)).toEqual([field]);
  });
});

describe("the MSH-3..6 settings of /api/interfaces", () => {
  const fields = [
    "sendingApplication",
    "sendingFacility",
    "receivingApplication",
    "receivingFacility",
    "assigningAuthority",
  ];
  const delimiters = ["|", "^", "~", "\\", "&", "\r"];
  test.each(fields.flatMap((field) => delimiters.map((d) => [field, d] as const)))(
    "answers 400 naming %s when it holds %j, storing nothing",
    async (field, delimiter) => {
      const { s } = await signedIn("admin");
      const created = await s.inject({
        method: "POST",
        url: "/api/interfaces",
        payload: { ...hl7, [field]: `EHR${delimiter}X` },
      });
      expect(created.statusCode).toBe(400);
      expect(errorFields(created)).toEqual([field]);
      expect(created.json()).toMatchObject({
        responseStatus: {
          errors: [
            { field, message: "Must not contain the HL7 delimiters | ^ ~ \\ & or a control character." },
          ],
        },
      });
      expect(
        (await s.inject({ method: "GET", url: "/api/interfaces" })).json<{ items: Interface[] }>().items,
      ).toEqual([]);
      const stored = (
        await s.inject({ method: "POST", url: "/api/interfaces", payload: hl7 })
      ).json<Interface>();
      const updated = await s.inject({
        method: "PUT",
        url: `/api/interfaces/${stored.id}`,
        payload: { ...hl7, [field]: `EHR${delimiter}X` },
      });
      expect(updated.statusCode).toBe(400);
      expect(errorFields(updated)).toEqual([field]);
      const read = await s.inject({ method: "GET", url: `/api/interfaces/${stored.id}` });
      expect(read.json<Record<string, unknown>>()[field]).toBe(hl7[field as keyof typeof hl7]);
    },
  );
});

describe("the assigning authority of /api/interfaces", () => {
  test("stores the MRN's authority and its OID, reads them back, and answers 400 naming a malformed OID", async () => {
    const { s } = await signedIn("admin");
    const payload = {
      ...hl7,
      assigningAuthority: "CCMRN",
      assigningAuthorityOid: "2.16.840.1.113883.3.72.5.1",
    };
    const created = await s.inject({ method: "POST", url: "/api/interfaces", payload });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Interface>().id;
    expect((await s.inject({ method: "GET", url: `/api/interfaces/${id}` })).json<Interface>()).toMatchObject(
      {
        assigningAuthority: "CCMRN",
        assigningAuthorityOid: "2.16.840.1.113883.3.72.5.1",
      },
    );
    const bad = await s.inject({
      method: "PUT",
      url: `/api/interfaces/${id}`,
      payload: { ...payload, assigningAuthorityOid: "2.16.x" },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorFields(bad)).toEqual(["assigningAuthorityOid"]);
    const cleared = await s.inject({ method: "PUT", url: `/api/interfaces/${id}`, payload: hl7 });
    expect(cleared.json<Interface>()).not.toHaveProperty("assigningAuthority");
    expect(cleared.json<Interface>()).not.toHaveProperty("assigningAuthorityOid");
  });
});

describe("/api/interfaces settings", () => {
  test("answers the default delivery settings, stores given ones, and keeps them on a PUT without any", async () => {
    const { s } = await signedIn("admin");
    const plain = (
      await s.inject({ method: "POST", url: "/api/interfaces", payload: hl7 })
    ).json<Interface>();
    expect(plain.settings).toEqual({
      ackTimeoutSeconds: 30,
      retryDelaysSeconds: [10, 20, 40, 80, 160, 320, 640, 1280, 1800],
      maxAttempts: 10,
    });
    const settings = { ackTimeoutSeconds: 60, retryDelaysSeconds: [5, 60], maxAttempts: 3 };
    const tuned = await s.inject({ method: "POST", url: "/api/interfaces", payload: { ...hl7, settings } });
    expect(tuned.statusCode, tuned.body).toBe(201);
    const id = tuned.json<Interface>().id;
    expect(tuned.json<Interface>().settings).toEqual(settings);
    const renamed = await s.inject({
      method: "PUT",
      url: `/api/interfaces/${id}`,
      payload: { ...hl7, name: "B" },
    });
    expect(renamed.json<Interface>()).toMatchObject({ name: "B", settings });
  });

  test.each([
    [{ ackTimeoutSeconds: 0 }, "settings.ackTimeoutSeconds"],
    [{ ackTimeoutSeconds: "soon" }, "settings.ackTimeoutSeconds"],
    [{ retryDelaysSeconds: [] }, "settings.retryDelaysSeconds"],
    [{ retryDelaysSeconds: [10, -1] }, "settings.retryDelaysSeconds.1"],
    [{ maxAttempts: 1000 }, "settings.maxAttempts"],
  ])("answers 400 naming the field for settings %j, storing nothing", async (settings, field) => {
    const { s } = await signedIn("admin");
    const res = await s.inject({ method: "POST", url: "/api/interfaces", payload: { ...hl7, settings } });
    expect(res.statusCode).toBe(400);
    expect(errorFields(res)).toContain(field);
    const list = await s.inject({ method: "GET", url: "/api/interfaces" });
    expect(list.json<{ total: number }>().total).toBe(0);
  });
});

describe("POST /api/interfaces/{id}/check-connection and the SFTP settings", () => {
  test("shows the SFTP server's key, takes it as confirmed, then signs in; another tenant's id is 404", async () => {
    const peer = await startSftpPeer();
    try {
      const { s } = await signedIn("admin");
      const created = await s.inject({
        method: "POST",
        url: "/api/interfaces",
        payload: {
          ...hl7,
          name: "Drop box",
          type: "sftp",
          host: "127.0.0.1",
          port: peer.port,
          username: peer.username,
          path: "/upload",
          secret: peer.password,
          processingId: "T",
          fileMode: "0640",
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const iface = created.json<Interface>();
      expect(iface).toMatchObject({ processingId: "T", fileMode: "0640" });
      expect(iface.hostKeySha256).toBeUndefined();

      const check = () => s.inject({ method: "POST", url: `/api/interfaces/${iface.id}/check-connection` });
      const first = await check();
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({
        hostKeySha256: peer.hostKeySha256,
        matches: null,
        connected: false,
      });

      const confirm = (hostKeySha256: string) =>
        s.inject({
          method: "PUT",
          url: `/api/interfaces/${iface.id}`,
          payload: { ...iface, hostKeySha256 },
        });
      const bad = await confirm("not-a-fingerprint");
      expect(bad.statusCode).toBe(400);
      expect(errorFields(bad)).toContain("hostKeySha256");
      expect((await confirm(peer.hostKeySha256)).statusCode).toBe(200);
      expect((await check()).json()).toMatchObject({ matches: true, connected: true });
      // An edit that does not name them (the portal's form) keeps the key, processing id and file mode.
      const { hostKeySha256: _key, processingId: _id, fileMode: _mode, ...formFields } = iface;
      const renamed = await s.inject({
        method: "PUT",
        url: `/api/interfaces/${iface.id}`,
        payload: { ...formFields, name: "Drop box renamed" },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json<Interface>()).toMatchObject({
        name: "Drop box renamed",
        hostKeySha256: peer.hostKeySha256,
        processingId: "T",
        fileMode: "0640",
      });
      // The server's key replaced: the check says so and nothing of the account is sent.
      expect((await confirm(`SHA256:${"C".repeat(43)}`)).statusCode).toBe(200);
      expect((await check()).json()).toMatchObject({ hostKeySha256: peer.hostKeySha256, matches: false });

      const other = await signedIn("admin");
      expect(
        (await other.s.inject({ method: "POST", url: `/api/interfaces/${iface.id}/check-connection` }))
          .statusCode,
      ).toBe(404);
    } finally {
      await peer.close();
    }
  }, 30_000);

  test("answers 400 for an interface that is not SFTP", async () => {
    const { s } = await signedIn("admin");
    const created = await s.inject({ method: "POST", url: "/api/interfaces", payload: hl7 });
    const res = await s.inject({
      method: "POST",
      url: `/api/interfaces/${created.json<Interface>().id}/check-connection`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      responseStatus: { message: "Only an SFTP interface has a host key to check." },
    });
  });
});
