import { RouteErrorBoundary } from "~/components/route-error";
import { CodesTab } from "~/components/master-data/codes-tab";
import { HospitalsTab } from "~/components/master-data/hospitals-tab";
import { PayersTab } from "~/components/master-data/payers-tab";
import { SuppliersTab } from "~/components/master-data/suppliers-tab";
import { TabsNav } from "~/components/ui/tabs-nav";
import { type SessionUser, requirePermission } from "~/.server/auth";
import { crudIntents, dispatchIntent, resolveDialog } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { listUrl, parseListState } from "~/lib/list-params";
import { HOSPITAL_LIST, MEDICAL_CODE_LIST, PAYER_LIST, SUPPLIER_LIST } from "~/lib/lists";
import { MASTER_DATA_TABS, MASTER_DATA_TAB_LABELS, type MasterDataTab, masterDataTabOf } from "~/lib/master-data-tabs";
import { can, rightsIn } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { createHospital, deleteHospital, getHospital, hospitalDeleteBlock, listHospitals, updateHospital } from "~/models/hospital.server";
import {
  createMedicalCode,
  deleteMedicalCode,
  getMedicalCode,
  listMedicalCodes,
  medicalCodeDeleteBlock,
  updateMedicalCode,
} from "~/models/medical-code.server";
import { createPayer, deletePayer, getPayer, listPayers, payerDeleteBlock, updatePayer } from "~/models/payer.server";
import { createSupplier, deleteSupplier, getSupplier, listSuppliers, supplierDeleteBlock, updateSupplier } from "~/models/supplier.server";
import { hospitalSchema, medicalCodeSchema, payerSchema, supplierSchema } from "~/validation/master-data";
import type { Route } from "./+types/master-data";

export const handle = { title: "Cadastros", subtitle: "Pagadores, hospitais, códigos médicos e fornecedores" };
export const meta: Route.MetaFunction = () => [{ title: "Cadastros · Sinapse" }];

/** The tab's list URL (search, page, order, filters), always under the tab's own path. */
function tabListUrl(url: URL, tab: MasterDataTab, declaration?: Parameters<typeof listUrl>[1]) {
  const tabUrl = new URL(url);
  tabUrl.pathname = `/master-data/${tab}`;
  return listUrl(tabUrl, declaration);
}

const named = <Row extends { id: number }>(row: Row | null, name: (row: Row) => string, refusal: (row: Row) => string | null) =>
  row && { id: row.id, name: name(row), refusal: refusal(row) };

function tabData(url: URL, user: SessionUser, tab: MasterDataTab) {
  const area = "masterData" as const;
  switch (tab) {
    case "payers": {
      const params = parseListState(url, PAYER_LIST);
      const dialogs = resolveDialog(url, user, {
        area,
        notFoundMessage: "Pagador não encontrado.",
        loadEditing: getPayer,
        loadDeleting: (id) => named(getPayer(id), (p) => p.name, payerDeleteBlock),
      });
      return { tab, params, ...dialogs, ...listPayers(params) };
    }
    case "hospitals": {
      const params = parseListState(url, HOSPITAL_LIST);
      const dialogs = resolveDialog(url, user, {
        area,
        notFoundMessage: "Hospital não encontrado.",
        loadEditing: getHospital,
        loadDeleting: (id) => named(getHospital(id), (h) => h.name, hospitalDeleteBlock),
      });
      return { tab, params, ...dialogs, ...listHospitals(params) };
    }
    case "codes": {
      const params = parseListState(url, MEDICAL_CODE_LIST);
      const dialogs = resolveDialog(url, user, {
        area,
        notFoundMessage: "Código não encontrado.",
        loadEditing: getMedicalCode,
        loadDeleting: (id) => named(getMedicalCode(id), (c) => c.code, medicalCodeDeleteBlock),
      });
      return { tab, params, ...dialogs, ...listMedicalCodes(params) };
    }
    case "suppliers": {
      const params = parseListState(url, SUPPLIER_LIST);
      const dialogs = resolveDialog(url, user, {
        area,
        notFoundMessage: "Fornecedor não encontrado.",
        loadEditing: getSupplier,
        loadDeleting: (id) => named(getSupplier(id), (s) => s.name, supplierDeleteBlock),
      });
      return { tab, params, ...dialogs, ...listSuppliers(params) };
    }
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "masterData", "view");
  const url = routeUrl(request);
  const tab = masterDataTabOf(url.pathname);
  return {
    data: tabData(url, user, tab),
    closeTo: tabListUrl(url, tab, tab === "codes" ? MEDICAL_CODE_LIST : undefined),
    permissions: rightsIn(user, "masterData"),
    canExport: can(user, "masterData", "export"),
  };
}

/** SPEC §8 toasts: 'Erro ao salvar pagador', 'Erro ao excluir hospital' … */
function messages(noun: string, article: "o" | "a", success: string) {
  return {
    created: `${success} criad${article} com sucesso`,
    updated: `${success} atualizad${article} com sucesso`,
    deleted: `${success} excluíd${article} com sucesso`,
    saveFailed: `Erro ao salvar ${noun}`,
    deleteFailed: `Erro ao excluir ${noun}`,
  };
}

const INTENTS = {
  payers: crudIntents({
    area: "masterData",
    schema: payerSchema,
    messages: messages("pagador", "o", "Pagador"),
    create: createPayer,
    update: updatePayer,
    remove: deletePayer,
  }),
  hospitals: crudIntents({
    area: "masterData",
    schema: hospitalSchema,
    messages: messages("hospital", "o", "Hospital"),
    create: createHospital,
    update: updateHospital,
    remove: deleteHospital,
  }),
  codes: crudIntents({
    area: "masterData",
    schema: medicalCodeSchema,
    messages: messages("código", "o", "Código"),
    create: createMedicalCode,
    update: updateMedicalCode,
    remove: deleteMedicalCode,
  }),
  suppliers: crudIntents({
    area: "masterData",
    schema: supplierSchema,
    messages: messages("fornecedor", "o", "Fornecedor"),
    create: createSupplier,
    update: updateSupplier,
    remove: deleteSupplier,
  }),
};

const NOT_FOUND: Record<MasterDataTab, string> = {
  payers: "Pagador não encontrado.",
  hospitals: "Hospital não encontrado.",
  codes: "Código não encontrado.",
  suppliers: "Fornecedor não encontrado.",
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "masterData", "view");
  const url = routeUrl(request);
  const tab = masterDataTabOf(url.pathname);
  return dispatchIntent(request, user, {
    back: tabListUrl(url, tab, tab === "codes" ? MEDICAL_CODE_LIST : undefined),
    notFoundMessage: NOT_FOUND[tab],
    intents: INTENTS[tab],
  });
}

export default function MasterDataPage({ loaderData, actionData }: Route.ComponentProps) {
  const { data, ...shared } = loaderData;
  useToastEffect(actionData?.toast);
  const tabs = MASTER_DATA_TABS.map((tab) => ({ to: `/master-data/${tab}`, label: MASTER_DATA_TAB_LABELS[tab], active: tab === data.tab }));
  return (
    <div className="space-y-4">
      <TabsNav items={tabs} label="Cadastros" />
      {data.tab === "payers" ? <PayersTab data={data} shared={shared} actionData={actionData} /> : null}
      {data.tab === "hospitals" ? <HospitalsTab data={data} shared={shared} actionData={actionData} /> : null}
      {data.tab === "codes" ? <CodesTab data={data} shared={shared} actionData={actionData} /> : null}
      {data.tab === "suppliers" ? <SuppliersTab data={data} shared={shared} actionData={actionData} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
