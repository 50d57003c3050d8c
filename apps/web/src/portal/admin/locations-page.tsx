import { type Location } from "../../api/types";
import { ResourcePage } from "./resource-page";

/** Locations (clinic sites) of the tenant (admins); edited inline. */
export default function LocationsPage() {
  return (
    <ResourcePage<Location>
      title="Locations"
      singular="Location"
      path="/api/locations"
      allowed={(may) => may.manageLocations}
      rowLabel={(l) => l.name}
      columns={[
        { key: "name", header: "Name", edit: { required: true } },
        { key: "code", header: "Code", edit: { required: true } },
      ]}
      fields={[
        { name: "name", label: "Name", required: true },
        { name: "code", label: "Code", required: true },
      ]}
      toForm={(l) => ({ ...l })}
      fromForm={(values) => ({ name: values.name, code: values.code })}
      inline={(_row, values) => ({ name: values.name?.trim(), code: values.code?.trim() })}
    />
  );
}
