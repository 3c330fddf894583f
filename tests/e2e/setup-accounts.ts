import { createAccount, setUserRole } from "../../app/models/user.server";
import { ACCOUNTS, PASSWORD } from "./accounts";

// The first account created becomes admin by the product's own rule; the others get their roles from it.
const admin = await createAccount({ ...ACCOUNTS.admin, password: PASSWORD });
for (const account of [ACCOUNTS.staff, ACCOUNTS.doctor, ACCOUNTS.rotating, ACCOUNTS.pending, ACCOUNTS.secure, ACCOUNTS.resetting]) {
  const { id } = await createAccount({ ...account, password: PASSWORD });
  if (account.role) setUserRole(admin.id, id, account.role);
}
