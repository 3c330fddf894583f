/**
 * TISS codes and the XML of a Guia de Honorários (DOMAIN.md §3; ANS Padrão TISS 4.01.00). Pure:
 * the model gathers a surgery's data, this turns it into the guide and the lote message.
 */
export const TISS_NAMESPACE = "http://www.ans.gov.br/padroes/tiss/schemas";
/** ENVIO_LOTE_GUIAS carries at most 100 guides, all of one kind. */
export const TISS_MAX_GUIDES_PER_LOTE = 100;

/** Tabela 35 — grau de participação, by the fee line's role and assistant position. */
export function participationDegree(role: "principal" | "auxiliar" | "anestesista", position: number | null): string {
  if (role === "principal") return "00";
  if (role === "anestesista") return "06";
  return `0${position ?? 1}`;
}

/** Tabela 59 — UF as the IBGE code of the state. */
export const UF_IBGE: Record<string, string> = {
  RO: "11", AC: "12", AM: "13", RR: "14", PA: "15", AP: "16", TO: "17", MA: "21", PI: "22", CE: "23", RN: "24", PB: "25", PE: "26", AL: "27",
  SE: "28", BA: "29", MG: "31", ES: "32", RJ: "33", SP: "35", PR: "41", SC: "42", RS: "43", MS: "50", MT: "51", GO: "52", DF: "53",
};

/** Tabela 24 — CBO of the physician, from the doctor's specialty (accents and case ignored). */
const CBO_BY_SPECIALTY: Record<string, string> = {
  neurocirurgia: "225260",
  "neurocirurgia pediatrica": "225260",
  anestesiologia: "225151",
  "ortopedia e traumatologia": "225270",
  ortopedia: "225270",
  "cirurgia geral": "225225",
  "clinica medica": "225125",
};

export function cboOf(specialty: string | null | undefined): string | null {
  const key = (specialty ?? "").normalize("NFD").replace(/\p{Diacritic}/gu, "").trim().toLowerCase();
  return CBO_BY_SPECIALTY[key] ?? null;
}

/** Conselho profissional (Tabela 26): CRM. */
export const COUNCIL_CRM = "06";
/** Tabela 87: 22 = TUSS procedimentos e eventos em saúde (CBHPM codes are TUSS codes). */
export const TABLE_TUSS_PROCEDURES = "22";

export interface TissProfessional {
  degree: string;
  name: string;
  cpfOrCode: { code: string } | { cpf: string };
  councilNumber: string;
  uf: string;
  cbo: string;
}

export interface TissProcedure {
  date: string;
  code: string;
  description: string;
  /** 1 única, 2 mesma via, 3 diferentes vias. */
  accessRoute: "1" | "2" | "3";
  /** 1 convencional, 2 videolaparoscopia, 3 robótica. */
  technique: "1" | "2" | "3";
  /** The multiplier of the act: procedure share × urgency (e.g. 0.50, 0.70, 1.30). */
  factor: number;
  unitCents: number;
  totalCents: number;
  professional: TissProfessional;
}

export interface TissGuide {
  ansRegistration: string;
  providerGuideNumber: string;
  authorizedRequestGuide: string;
  beneficiary: { cardNumber: string; name: string };
  place: { cnpj: string | null; providerCode: string; name: string; cnes: string };
  executor: { providerCode: string; name: string };
  billingStart: string;
  billingEnd: string;
  procedures: TissProcedure[];
  totalCents: number;
  issuedOn: string;
}

export interface TissLote {
  version: "4.01.00";
  providerCode: string;
  ansRegistration: string;
  loteNumber: number;
  transactionNumber: number;
  issuedAt: { date: string; time: string };
  guides: TissGuide[];
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const money = (cents: number) => (cents / 100).toFixed(2);
/** A TISS free-text field: trimmed to its maximum length. */
const clip = (text: string, max: number) => text.trim().slice(0, max);

type Node = [name: string, content: string | Node[]];

function render(nodes: Node[], depth: number): string {
  const pad = "  ".repeat(depth);
  return nodes
    .map(([name, content]) =>
      typeof content === "string" ? `${pad}<ans:${name}>${escapeXml(content)}</ans:${name}>` : `${pad}<ans:${name}>\n${render(content, depth + 1)}\n${pad}</ans:${name}>`,
    )
    .join("\n");
}

/** The TISS hash of the epílogo: MD5 of every element's text, in document order (computed by the caller). */
export function textOf(nodes: Node[]): string {
  return nodes.map(([, content]) => (typeof content === "string" ? content : textOf(content))).join("");
}

function guideNodes(guide: TissGuide): Node[] {
  return [
    ["cabecalhoGuia", [["registroANS", guide.ansRegistration], ["numeroGuiaPrestador", guide.providerGuideNumber]]],
    ["guiaSolicInternacao", guide.authorizedRequestGuide],
    ["beneficiario", [["numeroCarteira", guide.beneficiary.cardNumber], ["atendimentoRN", "N"], ["nomeBeneficiario", clip(guide.beneficiary.name, 70)]]],
    [
      "localContratado",
      [
        ["codigoContratado", [guide.place.cnpj ? ["cnpjLocalExecutante", guide.place.cnpj] : ["codigoNaOperadora", guide.place.providerCode]]],
        ["nomeContratado", clip(guide.place.name, 70)],
        ["cnes", guide.place.cnes],
      ],
    ],
    ["dadosContratadoExecutante", [["codigonaOperadora", guide.executor.providerCode], ["nomeContratadoExecutante", clip(guide.executor.name, 70)]]],
    ["dadosInternacao", [["dataInicioFaturamento", guide.billingStart], ["dataFimFaturamento", guide.billingEnd]]],
    [
      "procedimentosRealizados",
      guide.procedures.map((p, i): Node => [
        "procedimentoRealizado",
        [
          ["sequencialItem", String(i + 1)],
          ["dataExecucao", p.date],
          ["procedimento", [["codigoTabela", TABLE_TUSS_PROCEDURES], ["codigoProcedimento", p.code], ["descricaoProcedimento", clip(p.description, 150)]]],
          ["quantidadeExecutada", "1"],
          ["viaAcesso", p.accessRoute],
          ["tecnicaUtilizada", p.technique],
          ["reducaoAcrescimo", p.factor.toFixed(2)],
          ["valorUnitario", money(p.unitCents)],
          ["valorTotal", money(p.totalCents)],
          [
            "profissionais",
            [
              ["grauParticipacao", p.professional.degree],
              ["codProfissional", ["code" in p.professional.cpfOrCode ? ["codigoPrestadorNaOperadora", p.professional.cpfOrCode.code] : ["cpfContratado", p.professional.cpfOrCode.cpf]]],
              ["nomeProfissional", clip(p.professional.name, 70)],
              ["conselhoProfissional", COUNCIL_CRM],
              ["numeroConselhoProfissional", p.professional.councilNumber],
              ["UF", p.professional.uf],
              ["CBO", p.professional.cbo],
            ],
          ],
        ],
      ]),
    ],
    ["valorTotalHonorarios", money(guide.totalCents)],
    ["dataEmissaoGuia", guide.issuedOn],
  ];
}

/** The ENVIO_LOTE_GUIAS message of a lote; refuses more than 100 guides or none. `md5` hashes the text for the epílogo. */
export function loteXml(lote: TissLote, md5: (text: string) => string): string {
  if (!lote.guides.length) throw new RangeError("Um lote TISS precisa de ao menos uma guia.");
  if (lote.guides.length > TISS_MAX_GUIDES_PER_LOTE) throw new RangeError(`Um lote TISS tem no máximo ${TISS_MAX_GUIDES_PER_LOTE} guias (recebidas ${lote.guides.length}).`);
  const body: Node[] = [
    [
      "cabecalho",
      [
        [
          "identificacaoTransacao",
          [["tipoTransacao", "ENVIO_LOTE_GUIAS"], ["sequencialTransacao", String(lote.transactionNumber)], ["dataRegistroTransacao", lote.issuedAt.date], ["horaRegistroTransacao", lote.issuedAt.time]],
        ],
        ["origem", [["identificacaoPrestador", [["codigoPrestadorNaOperadora", lote.providerCode]]]]],
        ["destino", [["registroANS", lote.ansRegistration]]],
        ["Padrao", lote.version],
      ],
    ],
    ["prestadorParaOperadora", [["loteGuias", [["numeroLote", String(lote.loteNumber)], ["guiasTISS", lote.guides.map((g): Node => ["guiaHonorarios", guideNodes(g)])]]]]],
  ];
  const hash = md5(textOf(body));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<ans:mensagemTISS xmlns:ans="${TISS_NAMESPACE}">\n${render([...body, ["epilogo", [["hash", hash]]]], 1)}\n</ans:mensagemTISS>\n`;
}
