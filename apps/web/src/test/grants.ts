import type { May, UiAction } from "../api/types";

const NONE: May = {
  removePatients: false,
  removeResults: false,
  resendDeliveries: false,
  acknowledgeAlerts: false,
  editSurveys: false,
  editReports: false,
  manageUsers: false,
  manageLocations: false,
  manageInterfaces: false,
  manageInbound: false,
  viewAudit: false,
  uploadBatch: false,
  setUpSecondFactor: false,
  manageTenants: false,
  visitTenants: false,
};

/**
 * A `Me.may` for a test's fake session: the acts named granted, every other refused. Which role the
 * server grants what is the API's permission table's to say (apps/api/src/permissions.ts), not a test's.
 */
export function grants(granted: readonly UiAction[] = []): May {
  return { ...NONE, ...Object.fromEntries(granted.map((action) => [action, true])) };
}
