import { describe, expect, it } from "vitest";
import { ACTIONS, PERMISSIONS, ROLES, can } from "~/lib/permissions";

/** SPEC §6, written out by hand so that a change to the table must be made twice, on purpose. */
const EXPECTED: Record<string, Record<string, string>> = {
  patients: { view: "admin staff doctor", create: "admin staff", edit: "admin staff", delete: "admin" },
  appointments: { view: "admin staff doctor", create: "admin staff", edit: "admin staff", delete: "admin" },
  doctors: { view: "admin staff doctor", create: "admin", edit: "admin", delete: "admin" },
  surgeries: { view: "admin staff doctor", create: "admin staff", edit: "admin staff", delete: "admin" },
  financial: { view: "admin", create: "admin", edit: "admin", delete: "admin" },
  tasks: { view: "admin staff doctor", create: "admin staff doctor", edit: "admin staff doctor", delete: "admin staff doctor", export: "admin staff doctor" },
  masterData: { view: "admin staff doctor", create: "admin", edit: "admin", delete: "admin" },
  sops: { view: "admin staff doctor", create: "admin", edit: "admin", delete: "admin" },
  referrers: { view: "admin staff doctor", create: "admin", edit: "admin", delete: "admin" },
  orders: { view: "admin staff doctor", create: "admin staff", edit: "admin staff", delete: "admin staff" },
  googleDrive: { view: "admin staff doctor", create: "admin staff" },
  googleForms: { create: "admin staff" },
  users: { view: "admin", edit: "admin" },
  payerReports: { view: "admin staff", create: "admin", edit: "admin", delete: "admin" },
  feeImports: { view: "admin staff", create: "admin", edit: "admin", delete: "admin" },
  tiss: { view: "admin staff", create: "admin", edit: "admin", delete: "admin" },
};

describe("permission matrix", () => {
  for (const [area, actions] of Object.entries(EXPECTED)) {
    for (const [action, roles] of Object.entries(actions)) {
      it(`${area}.${action} is allowed to exactly: ${roles}`, () => {
        const allowed = ROLES.filter((role) => can({ role }, area as keyof typeof PERMISSIONS, action as (typeof ACTIONS)[number]));
        expect(allowed.join(" ")).toBe(roles);
      });
    }
  }

  it("refuses everything to an account without a role", () => {
    for (const area of Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>) {
      for (const action of ACTIONS) {
        expect(can({ role: null }, area, action)).toBe(false);
        expect(can(null, area, action)).toBe(false);
      }
    }
  });

  it("lets doctors view wherever staff may view", () => {
    for (const area of Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>) {
      const staffViews = can({ role: "staff" }, area, "view");
      if (area === "receivables" || area === "payerReports" || area === "feeImports" || area === "tiss") continue; // money owed to the clinic: staff only
      expect(can({ role: "doctor" }, area, "view")).toBe(staffViews);
    }
  });

  it("gives admins every right", () => {
    for (const area of Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>) {
      for (const action of ACTIONS) expect(can({ role: "admin" }, area, action)).toBe(true);
    }
  });
});
