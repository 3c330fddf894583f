/**
 * Fixed catalogues for the demo data set: names, master data, codes, templates and SOPs.
 * Companies, hospitals and people are fictional; CNPJs and CPFs are generated (valid check
 * digits, not real registrations). CBHPM/TUSS/CID-10 codes and descriptions are real.
 */
import type { FeeLineRole, PayerType, SupplierType, HospitalType, TemplateCategory, TemplateStatus, AutomationTrigger } from "../../app/lib/enums";

export const FEMALE_NAMES = [
  "Ana", "Beatriz", "Camila", "Conceição", "Débora", "Fernanda", "Gabriela", "Helena", "Inês", "Joana",
  "Júlia", "Lúcia", "Luíza", "Márcia", "Maria José", "Mônica", "Patrícia", "Raquel", "Sônia", "Tânia",
  "Valéria", "Vitória", "Letícia", "Cecília", "Aparecida", "Glória", "Rosângela", "Lívia", "Natália", "Isabela",
] as const;

export const MALE_NAMES = [
  "João", "José", "Antônio", "Luís", "Sebastião", "André", "Caio", "César", "Fábio", "Flávio",
  "Gonçalo", "Henrique", "Inácio", "Joaquim", "Júlio", "Márcio", "Marcos", "Otávio", "Paulo", "Rafael",
  "Sérgio", "Tomás", "Vinícius", "Vítor", "Álvaro", "Benedito", "Raimundo", "Estêvão", "Rogério", "Ângelo",
] as const;

export const SURNAMES = [
  "Silva", "Santos", "Oliveira", "Souza", "Gonçalves", "Conceição", "Araújo", "Ribeiro", "Carvalho", "Gomes",
  "Martins", "Rocha", "Pereira", "Lima", "Fernandes", "Cardoso", "Magalhães", "Assunção", "Brandão", "Peixoto",
  "Nogueira", "Falcão", "Simões", "Guimarães", "Damião", "Lopes", "Barbosa", "Monteiro", "Teixeira", "Aragão",
  "Romão", "Estevão", "Prudêncio", "Antunes", "Sá", "Mendonça", "Castro", "Moraes", "Vieira", "Azevedo",
] as const;

export const STREETS = [
  "Rua Vergueiro", "Avenida Paulista", "Rua Augusta", "Rua Domingos de Morais", "Avenida Rebouças",
  "Rua Teodoro Sampaio", "Rua Tuiuti", "Avenida Ibirapuera", "Rua Voluntários da Pátria", "Rua da Mooca",
  "Avenida Sapopemba", "Rua Cardeal Arcoverde", "Avenida Jabaquara", "Rua Itapura", "Avenida Santo Amaro",
] as const;

export const NEIGHBORHOODS = [
  "Vila Mariana", "Bela Vista", "Consolação", "Pinheiros", "Tatuapé", "Santana", "Moema", "Mooca",
  "Saúde", "Ipiranga", "Perdizes", "Butantã", "Jabaquara", "Penha", "Lapa",
] as const;

export const EMAIL_DOMAINS = ["gmail.com", "hotmail.com", "outlook.com.br", "uol.com.br", "yahoo.com.br", "terra.com.br"] as const;

/** Patient insurance as typed on the record, with how common it is in the demo population. */
export const INSURANCE_WEIGHTS = [
  ["Unimed", 24],
  ["Bradesco Saúde", 16],
  ["SulAmérica", 14],
  ["Amil", 12],
  ["Porto Seguro Saúde", 6],
  ["SUS", 10],
  ["Particular", 12],
  [null, 6],
] as const;

export const MEDICAL_HISTORY = [
  "Hipertensão arterial sistêmica em uso de losartana 50 mg.",
  "Diabetes mellitus tipo 2, controlada com metformina.",
  "Lombalgia crônica há 5 anos, refratária a fisioterapia.",
  "Cervicalgia com irradiação para membro superior direito.",
  "Alergia a dipirona. Nega outras comorbidades.",
  "Ex-tabagista (20 maços-ano). Dislipidemia.",
  "Cirurgia prévia de coluna lombar (microdiscectomia L5-S1, 2019).",
  "Cefaleia crônica; RM de crânio solicitada.",
  "Hipotireoidismo em uso de levotiroxina.",
  "Osteoporose em tratamento; fratura vertebral prévia.",
  "Epilepsia focal em uso de levetiracetam.",
  "Sem comorbidades conhecidas.",
] as const;

export interface DoctorSeed {
  name: string;
  specialty: string;
  crm: string;
  crmUf: string;
  email: string;
  commissionRate: number;
  /** Consultation weekdays (1 = Monday … 5 = Friday); empty for anaesthetists. */
  clinicDays: number[];
  clinicPeriod: "morning" | "afternoon";
  area: "coluna" | "cranio" | "anestesia";
}

export const DOCTORS: DoctorSeed[] = [
  { name: "Dr. Ricardo Almeida Figueiredo", specialty: "Neurocirurgia", crm: "112845", crmUf: "SP", email: "medico@sinapse.demo", commissionRate: 0.3, clinicDays: [1, 3, 5], clinicPeriod: "afternoon", area: "cranio" },
  { name: "Dra. Helena Castro Monteiro", specialty: "Neurocirurgia", crm: "134270", crmUf: "SP", email: "helena.monteiro@sinapse.demo", commissionRate: 0.25, clinicDays: [2, 4], clinicPeriod: "morning", area: "cranio" },
  { name: "Dr. Tiago Araújo Brandão", specialty: "Neurocirurgia Pediátrica", crm: "151093", crmUf: "SP", email: "tiago.brandao@sinapse.demo", commissionRate: 0.2, clinicDays: [1, 4], clinicPeriod: "morning", area: "cranio" },
  { name: "Dr. Fábio Gonçalves Teixeira", specialty: "Cirurgia de Coluna", crm: "98721", crmUf: "SP", email: "fabio.teixeira@sinapse.demo", commissionRate: 0.3, clinicDays: [1, 2, 4], clinicPeriod: "morning", area: "coluna" },
  { name: "Dra. Mariana Conceição Lopes", specialty: "Cirurgia de Coluna", crm: "143556", crmUf: "SP", email: "mariana.lopes@sinapse.demo", commissionRate: 0.25, clinicDays: [2, 3, 5], clinicPeriod: "afternoon", area: "coluna" },
  { name: "Dr. Paulo Sérgio Nogueira", specialty: "Cirurgia de Coluna", crm: "45218", crmUf: "MG", email: "paulo.nogueira@sinapse.demo", commissionRate: 0.2, clinicDays: [3, 5], clinicPeriod: "morning", area: "coluna" },
  { name: "Dra. Camila Ribeiro Assunção", specialty: "Anestesiologia", crm: "127604", crmUf: "SP", email: "camila.assuncao@sinapse.demo", commissionRate: 0.15, clinicDays: [], clinicPeriod: "morning", area: "anestesia" },
  { name: "Dr. Jorge Luís Fernandes", specialty: "Anestesiologia", crm: "88412", crmUf: "SP", email: "jorge.fernandes@sinapse.demo", commissionRate: 0.15, clinicDays: [], clinicPeriod: "morning", area: "anestesia" },
];

export interface PayerSeed {
  name: string;
  type: PayerType;
  email: string | null;
  phone: string | null;
  paymentTermsDays: number;
  coveragePercentage: number;
  /** Multiplier over the CBHPM 2017 reference the payer pays in fees. */
  feeFactor: number;
  notes: string | null;
}

export const PAYERS: PayerSeed[] = [
  { name: "Unimed", type: "insurance", email: "credenciamento@unimed.demo", phone: "1133345000", paymentTermsDays: 30, coveragePercentage: 100, feeFactor: 1.2, notes: "Faturamento até o dia 10; envio de guias pelo portal." },
  { name: "Bradesco Saúde", type: "insurance", email: "prestadores@bradescosaude.demo", phone: "1140042700", paymentTermsDays: 45, coveragePercentage: 100, feeFactor: 1.1, notes: "Exige relatório médico e laudos de imagem na pré-autorização." },
  { name: "SulAmérica", type: "insurance", email: "rede@sulamerica.demo", phone: "1130047900", paymentTermsDays: 30, coveragePercentage: 90, feeFactor: 1.15, notes: null },
  { name: "Amil", type: "insurance", email: "rede.credenciada@amil.demo", phone: "1130043000", paymentTermsDays: 60, coveragePercentage: 80, feeFactor: 1.0, notes: "Auditoria de OPME obrigatória para artrodeses." },
  { name: "Porto Seguro Saúde", type: "insurance", email: "saude.prestador@portoseguro.demo", phone: "1133378000", paymentTermsDays: 30, coveragePercentage: 100, feeFactor: 1.1, notes: null },
  { name: "SUS", type: "government", email: null, phone: "136", paymentTermsDays: 90, coveragePercentage: 100, feeFactor: 0.4, notes: "Procedimentos pela tabela SIGTAP via hospital conveniado." },
  { name: "Particular", type: "private", email: null, phone: null, paymentTermsDays: 0, coveragePercentage: 0, feeFactor: 1.8, notes: "Pagamento antecipado ou em até 6x no cartão." },
];

export interface HospitalSeed {
  name: string;
  address: string;
  city: string;
  postalCode: string;
  phone: string;
  email: string;
  type: HospitalType;
  accreditation: string | null;
}

export const HOSPITALS: HospitalSeed[] = [
  { name: "Hospital Santa Aurora", address: "Rua Desembargador Eliseu Guilherme, 410 - Paraíso", city: "São Paulo", postalCode: "04004-030", phone: "1130579000", email: "centrocirurgico@santaaurora.demo", type: "private", accreditation: "JCI" },
  { name: "Hospital São Lucas da Paulista", address: "Alameda Santos, 1800 - Cerqueira César", city: "São Paulo", postalCode: "01418-200", phone: "1132876500", email: "agendamento@saolucaspaulista.demo", type: "private", accreditation: "ONA Nível 3" },
  { name: "Hospital Primavera Moema", address: "Avenida Ibirapuera, 2950 - Moema", city: "São Paulo", postalCode: "04028-002", phone: "1150534400", email: "cirurgias@primaveramoema.demo", type: "private", accreditation: "ONA Nível 2" },
  { name: "Hospital Beneficente Santa Cecília", address: "Rua Jaguaribe, 620 - Santa Cecília", city: "São Paulo", postalCode: "01224-001", phone: "1133312200", email: "convenios@hbsantacecilia.demo", type: "mixed", accreditation: "ONA Nível 1" },
  { name: "Hospital Estadual Zona Leste", address: "Avenida Itaquera, 8500 - Itaquera", city: "São Paulo", postalCode: "08295-000", phone: "1120718000", email: "neurocirurgia@hezl.demo", type: "public", accreditation: null },
  { name: "Hospital Vale do Tamanduateí", address: "Avenida Industrial, 1100 - Jardim", city: "Santo André", postalCode: "09080-500", phone: "1144328800", email: "centrocirurgico@valetamanduatei.demo", type: "private", accreditation: "Qmentum" },
];

export interface SupplierSeed {
  name: string;
  type: SupplierType;
  email: string;
  phone: string;
  address: string;
  paymentTermsDays: number;
  qualityRating: number;
  notes: string | null;
}

export const SUPPLIERS: SupplierSeed[] = [
  { name: "NeoSpine Implantes Ortopédicos Ltda", type: "opme", email: "vendas@neospine.demo", phone: "1135901200", address: "Rua Loefgren, 1500 - Vila Clementino, São Paulo - SP", paymentTermsDays: 60, qualityRating: 4.8, notes: "Parafusos pediculares, hastes e cages PEEK; consignado no hospital." },
  { name: "Vértebra Distribuidora de OPME", type: "opme", email: "cotacao@vertebra.demo", phone: "1144771300", address: "Avenida Portugal, 900 - Centro, Santo André - SP", paymentTermsDays: 45, qualityRating: 4.3, notes: "Kits de cifoplastia e vertebroplastia." },
  { name: "NeuroMed Materiais Neurocirúrgicos", type: "opme", email: "comercial@neuromed.demo", phone: "1132214455", address: "Rua Borges Lagoa, 1080 - Vila Clementino, São Paulo - SP", paymentTermsDays: 30, qualityRating: 4.6, notes: "Válvulas de DVP, clipes de aneurisma, substitutos de dura-máter." },
  { name: "FarmaHosp Distribuidora de Medicamentos", type: "pharmaceutical", email: "pedidos@farmahosp.demo", phone: "1126419900", address: "Rua Dr. Almeida Lima, 1200 - Brás, São Paulo - SP", paymentTermsDays: 28, qualityRating: 4.1, notes: null },
  { name: "Imagem Cirúrgica Equipamentos Médicos", type: "equipment", email: "assistencia@imagemcirurgica.demo", phone: "1137228100", address: "Rua Fradique Coutinho, 300 - Pinheiros, São Paulo - SP", paymentTermsDays: 30, qualityRating: 4.5, notes: "Locação de microscópio e neuronavegador." },
  { name: "Cirúrgica Paulista Suprimentos", type: "supplies", email: "vendas@cirurgicapaulista.demo", phone: "1133267744", address: "Rua Vergueiro, 2500 - Vila Mariana, São Paulo - SP", paymentTermsDays: 30, qualityRating: 3.9, notes: "Descartáveis e materiais de consultório." },
  { name: "LavClean Esterilização", type: "other", email: "contato@lavclean.demo", phone: "1129871122", address: "Rua Cachoeira, 455 - Belenzinho, São Paulo - SP", paymentTermsDays: 15, qualityRating: 3.5, notes: "Contrato suspenso para renegociação." },
];

/**
 * Demo value of a CBHPM porte in 2017, in cents. Portes 9C and 14A are the SPEC's reference
 * prices (laminectomy 1141.07, intracranial tumour microsurgery 3809.81); the others are
 * plausible values for demonstration, not the official table.
 */
export const PORTE_2017_CENTS: Record<string, number> = {
  "2B": 9_750,
  "3C": 20_155,
  "5B": 35_618,
  "5C": 40_225,
  "8A": 77_129,
  "8C": 89_964,
  "9A": 99_280,
  "9C": 114_107,
  "10A": 127_530,
  "10B": 139_480,
  "10C": 153_825,
  "11A": 172_410,
  "11C": 215_700,
  "13B": 326_900,
  "14A": 380_981,
};

export interface ProcedureSeed {
  /** TUSS / CBHPM code as 8 digits; CBHPM shows it as 3.07.15.19-9. */
  tuss: string;
  description: string;
  porte: string;
  category: "Coluna" | "Neurocirurgia" | "Dor" | "Consultas";
}

export const PROCEDURES: ProcedureSeed[] = [
  { tuss: "10101012", description: "Consulta em consultório (no horário normal ou preestabelecido)", porte: "2B", category: "Consultas" },
  { tuss: "30715016", description: "Artrodese da coluna com instrumentação por segmento", porte: "10B", category: "Coluna" },
  { tuss: "30715024", description: "Artrodese de coluna via anterior ou póstero lateral", porte: "10B", category: "Coluna" },
  { tuss: "30715598", description: "Artroplastia discal de coluna vertebral", porte: "11A", category: "Coluna" },
  { tuss: "30715032", description: "Biópsia da coluna", porte: "5B", category: "Coluna" },
  { tuss: "30715059", description: "Cirurgia de coluna por via endoscópica", porte: "11A", category: "Coluna" },
  { tuss: "30715580", description: "Discectomia percutânea endoscópica", porte: "9A", category: "Coluna" },
  { tuss: "30715091", description: "Descompressão medular e/ou cauda equina", porte: "9C", category: "Coluna" },
  { tuss: "30715105", description: "Dorso curvo / escoliose / giba costal – tratamento cirúrgico", porte: "11A", category: "Coluna" },
  { tuss: "30715113", description: "Espondilolistese – tratamento cirúrgico", porte: "10A", category: "Coluna" },
  { tuss: "30715164", description: "Fraturas ou fratura-luxação de coluna – tratamento cirúrgico", porte: "8C", category: "Coluna" },
  { tuss: "30715393", description: "Hérnia de disco cervical – tratamento cirúrgico", porte: "10C", category: "Coluna" },
  { tuss: "30715180", description: "Hérnia de disco tóraco-lombar – tratamento cirúrgico", porte: "9C", category: "Coluna" },
  { tuss: "30715199", description: "Laminectomia ou laminotomia", porte: "9C", category: "Coluna" },
  { tuss: "30715563", description: "Osteoplastia vertebral por cifoplastia", porte: "8C", category: "Coluna" },
  { tuss: "30715555", description: "Osteoplastia vertebral por vertebroplastia", porte: "8C", category: "Coluna" },
  { tuss: "30715245", description: "Pseudoartrose de coluna – tratamento cirúrgico", porte: "9C", category: "Coluna" },
  { tuss: "30715270", description: "Retirada de material de síntese – tratamento cirúrgico", porte: "8A", category: "Coluna" },
  { tuss: "30715288", description: "Substituição de corpo vertebral", porte: "10B", category: "Coluna" },
  { tuss: "30715350", description: "Tratamento microcirúrgico das lesões intramedulares", porte: "13B", category: "Coluna" },
  { tuss: "30715369", description: "Tratamento microcirúrgico do canal vertebral estreito por segmento", porte: "9C", category: "Coluna" },
  { tuss: "31401015", description: "Biópsia estereotáxica de encéfalo", porte: "10A", category: "Neurocirurgia" },
  { tuss: "31401031", description: "Cirurgia intracraniana por via endoscópica", porte: "11A", category: "Neurocirurgia" },
  { tuss: "31401058", description: "Derivação ventricular externa", porte: "5C", category: "Neurocirurgia" },
  { tuss: "31401155", description: "Microcirurgia para tumores intracranianos", porte: "14A", category: "Neurocirurgia" },
  { tuss: "31401163", description: "Microcirurgia por via transesfenoidal", porte: "11A", category: "Neurocirurgia" },
  { tuss: "31401171", description: "Microcirurgia vascular intracraniana", porte: "14A", category: "Neurocirurgia" },
  { tuss: "31401236", description: "Sistema de derivação ventricular interna com válvulas ou revisões", porte: "10B", category: "Neurocirurgia" },
  { tuss: "31401252", description: "Tratamento cirúrgico da epilepsia", porte: "11C", category: "Neurocirurgia" },
  { tuss: "31401260", description: "Tratamento cirúrgico da fístula liquórica", porte: "10C", category: "Neurocirurgia" },
  { tuss: "31401309", description: "Tratamento cirúrgico do hematoma intracraniano", porte: "11C", category: "Neurocirurgia" },
  { tuss: "31602169", description: "Bloqueio peridural ou subaracnóideo com corticóide", porte: "3C", category: "Dor" },
];

/** '30715199' → '3.07.15.19-9' (the CBHPM way of writing the code). */
export function cbhpmCode(tuss: string): string {
  return `${tuss[0]}.${tuss.slice(1, 3)}.${tuss.slice(3, 5)}.${tuss.slice(5, 7)}-${tuss[7]}`;
}

export const ICD10_CODES: Array<{ code: string; description: string; category: string }> = [
  { code: "M51.1", description: "Transtornos de discos lombares e de outros discos intervertebrais com radiculopatia", category: "Coluna" },
  { code: "M50.1", description: "Transtorno do disco cervical com radiculopatia", category: "Coluna" },
  { code: "M48.0", description: "Estenose da coluna vertebral", category: "Coluna" },
  { code: "M43.1", description: "Espondilolistese", category: "Coluna" },
  { code: "M47.8", description: "Outras espondiloses", category: "Coluna" },
  { code: "M41.1", description: "Escoliose idiopática juvenil", category: "Coluna" },
  { code: "M54.5", description: "Dor lombar baixa", category: "Coluna" },
  { code: "M54.2", description: "Cervicalgia", category: "Coluna" },
  { code: "M80.0", description: "Osteoporose pós-menopáusica com fratura patológica", category: "Coluna" },
  { code: "S32.0", description: "Fratura de vértebra lombar", category: "Trauma" },
  { code: "S06.5", description: "Hemorragia subdural devida a traumatismo", category: "Trauma" },
  { code: "C71.9", description: "Neoplasia maligna do encéfalo, não especificado", category: "Neuro-oncologia" },
  { code: "D32.0", description: "Neoplasia benigna das meninges cerebrais", category: "Neuro-oncologia" },
  { code: "D35.2", description: "Neoplasia benigna da hipófise", category: "Neuro-oncologia" },
  { code: "I67.1", description: "Aneurisma cerebral não-roto", category: "Neurovascular" },
  { code: "G91.2", description: "Hidrocefalia de pressão normal", category: "Neurocirurgia" },
  { code: "G40.9", description: "Epilepsia, não especificada", category: "Neurologia" },
  { code: "G35", description: "Esclerose múltipla", category: "Neurologia" },
  { code: "G56.0", description: "Síndrome do túnel do carpo", category: "Nervos periféricos" },
];

export const CUSTOM_CODES: Array<{ code: string; description: string; category: string; priceCents: number }> = [
  { code: "SIN-PKG-001", description: "Pacote particular – microdiscectomia lombar (honorários da equipe)", category: "Pacotes particulares", priceCents: 2_200_000 },
  { code: "SIN-PKG-002", description: "Pacote particular – artrodese lombar 1 nível (honorários da equipe)", category: "Pacotes particulares", priceCents: 3_800_000 },
  { code: "SIN-CONS-01", description: "Consulta particular com especialista", category: "Consultas", priceCents: 65_000 },
  { code: "SIN-TELE-01", description: "Teleconsulta de retorno", category: "Consultas", priceCents: 35_000 },
];

export interface SurgeryTypeSeed {
  name: string;
  area: "coluna" | "cranio";
  tuss: string;
  icd: string;
  durationMin: number;
  /** Needs implants quoted before authorisation (adds the OPME stage). */
  opme: boolean;
}

export const SURGERY_TYPES: SurgeryTypeSeed[] = [
  { name: "Microdiscectomia lombar L4-L5", area: "coluna", tuss: "30715180", icd: "M51.1", durationMin: 120, opme: false },
  { name: "Artrodese lombar instrumentada L4-L5", area: "coluna", tuss: "30715016", icd: "M43.1", durationMin: 240, opme: true },
  { name: "Laminectomia descompressiva lombar", area: "coluna", tuss: "30715199", icd: "M48.0", durationMin: 150, opme: false },
  { name: "Discectomia cervical anterior com artrodese (ACDF) C5-C6", area: "coluna", tuss: "30715393", icd: "M50.1", durationMin: 180, opme: true },
  { name: "Cifoplastia T12", area: "coluna", tuss: "30715563", icd: "M80.0", durationMin: 90, opme: true },
  { name: "Descompressão de canal estreito lombar", area: "coluna", tuss: "30715369", icd: "M48.0", durationMin: 180, opme: false },
  { name: "Artroplastia discal cervical C6-C7", area: "coluna", tuss: "30715598", icd: "M50.1", durationMin: 180, opme: true },
  { name: "Microcirurgia de tumor intracraniano (meningioma)", area: "cranio", tuss: "31401155", icd: "D32.0", durationMin: 300, opme: false },
  { name: "Ressecção transesfenoidal de adenoma hipofisário", area: "cranio", tuss: "31401163", icd: "D35.2", durationMin: 240, opme: false },
  { name: "Clipagem de aneurisma cerebral", area: "cranio", tuss: "31401171", icd: "I67.1", durationMin: 300, opme: true },
  { name: "Derivação ventriculoperitoneal", area: "cranio", tuss: "31401236", icd: "G91.2", durationMin: 90, opme: true },
  { name: "Drenagem de hematoma subdural crônico", area: "cranio", tuss: "31401309", icd: "S06.5", durationMin: 90, opme: false },
];

/** Share of the principal surgeon's fee paid to each other role. */
export const FEE_ROLE_SHARE: Record<Exclude<FeeLineRole, "principal">, number> = {
  auxiliar: 0.3,
  anestesista: 0.35,
};

export interface TemplateSeed {
  title: string;
  category: TemplateCategory;
  status: TemplateStatus;
  body: string;
}

export const MESSAGE_TEMPLATES: TemplateSeed[] = [
  {
    title: "Agradecimento pós-consulta",
    category: "pos_consulta",
    status: "aprovado",
    body: "Olá, {{paciente.nome}}! Obrigado por consultar com {{medico.nome}} hoje. Se surgir qualquer dúvida sobre as orientações, responda esta mensagem. Equipe Sinapse.",
  },
  {
    title: "Orientações e exames solicitados",
    category: "pos_consulta",
    status: "aprovado",
    body: "{{paciente.nome}}, conforme combinado na consulta de {{data}}, seguem os exames solicitados por {{medico.nome}}. Traga os resultados no retorno. Qualquer dúvida, estamos à disposição.",
  },
  {
    title: "Confirmação de consulta",
    category: "agendamento",
    status: "aprovado",
    body: "Olá, {{paciente.nome}}! Sua consulta com {{medico.nome}} está marcada para {{data}} às {{horario}}, em {{local}}. Confirme sua presença pelo link: {{link_confirmacao}}",
  },
  {
    title: "Lembrete 24h antes",
    category: "agendamento",
    status: "aprovado",
    body: "Lembrete: amanhã, {{data}}, às {{horario}}, você tem consulta com {{medico.nome}} em {{local}}. Chegue 15 minutos antes com documento e carteirinha do convênio.",
  },
  {
    title: "Reagendamento de consulta",
    category: "agendamento",
    status: "rascunho",
    body: "{{paciente.nome}}, precisamos reagendar sua consulta com {{medico.nome}}. O novo horário proposto é {{data}} às {{horario}}. Podemos confirmar?",
  },
  {
    title: "Boas-vindas à clínica",
    category: "boas_vindas",
    status: "aprovado",
    body: "Seja bem-vindo(a), {{paciente.nome}}! Sua primeira consulta com {{medico.nome}} será em {{data}} às {{horario}}, em {{local}}. Traga exames de imagem anteriores (RM, TC, raio-X) e a lista de medicamentos em uso.",
  },
  {
    title: "Documentos para a primeira consulta",
    category: "boas_vindas",
    status: "aprovado",
    body: "{{paciente.nome}}, para agilizar seu atendimento no dia {{data}}, envie por aqui foto do documento com CPF, da carteirinha do convênio e do pedido médico, se houver.",
  },
  {
    title: "Orientações pré-operatórias",
    category: "procedimentos",
    status: "aprovado",
    body: "{{paciente.nome}}, sua cirurgia ({{procedimento}}) com {{medico.nome}} está marcada para {{data}} às {{horario}} em {{local}}. Jejum de 8 horas, suspenda anticoagulantes conforme orientado e traga todos os exames.",
  },
  {
    title: "Confirmação de data da cirurgia",
    category: "procedimentos",
    status: "aprovado",
    body: "Boa notícia, {{paciente.nome}}: o convênio autorizou o procedimento {{procedimento}}. A cirurgia foi agendada para {{data}} às {{horario}}, em {{local}}.",
  },
  {
    title: "Acompanhamento do 1º dia pós-operatório",
    category: "procedimentos",
    status: "rascunho",
    body: "Olá, {{paciente.nome}}, como você está se sentindo após a cirurgia? Em caso de febre, dor intensa ou secreção na ferida, entre em contato imediatamente.",
  },
  {
    title: "Alta do acompanhamento",
    category: "encerramento",
    status: "aprovado",
    body: "{{paciente.nome}}, {{medico.nome}} concluiu seu acompanhamento. Mantenha os exercícios orientados e, se os sintomas voltarem, agende um retorno. Desejamos uma ótima recuperação!",
  },
  {
    title: "Feliz aniversário",
    category: "encerramento",
    status: "aprovado",
    body: "Feliz aniversário, {{paciente.nome}}! Toda a equipe da clínica deseja a você um novo ano com muita saúde.",
  },
  {
    title: "Pesquisa de satisfação",
    category: "encerramento",
    status: "inativo",
    body: "{{paciente.nome}}, sua opinião é muito importante. Como foi seu atendimento com {{medico.nome}}? Responda com uma nota de 0 a 10.",
  },
];

export interface RuleSeed {
  name: string;
  templateTitle: string;
  trigger: AutomationTrigger;
  offsetMinutes: number;
  enabled: boolean;
}

export const AUTOMATION_RULES: RuleSeed[] = [
  { name: "Lembrete 24h antes da consulta", templateTitle: "Lembrete 24h antes", trigger: "appointment_start", offsetMinutes: -1440, enabled: true },
  { name: "Agradecimento no dia seguinte à consulta", templateTitle: "Agradecimento pós-consulta", trigger: "appointment_completed", offsetMinutes: 1440, enabled: true },
  { name: "Orientações 2 dias antes da cirurgia", templateTitle: "Orientações pré-operatórias", trigger: "surgery_date", offsetMinutes: -2880, enabled: true },
  { name: "Parabéns no aniversário", templateTitle: "Feliz aniversário", trigger: "patient_birthday", offsetMinutes: 540, enabled: false },
  { name: "Pesquisa de satisfação 7 dias após a consulta", templateTitle: "Pesquisa de satisfação", trigger: "appointment_completed", offsetMinutes: 10080, enabled: false },
];

export interface SopSeed {
  title: string;
  category: string;
  status: "draft" | "active" | "archived";
  version: number;
  contentMd: string;
}

export const SOPS: SopSeed[] = [
  {
    title: "Checklist pré-operatório de cirurgia de coluna",
    category: "Cirúrgico",
    status: "active",
    version: 3,
    contentMd: `# Checklist pré-operatório – coluna

## Até 15 dias antes
- [ ] Pré-autorização do convênio aprovada (guia e senha anotadas na cirurgia)
- [ ] OPME cotada e autorizada, com fornecedor e data de entrega confirmados
- [ ] Exames: hemograma, coagulograma, glicemia, creatinina, ECG; risco cirúrgico se > 40 anos

## Até 48 horas antes
- [ ] Paciente orientado sobre jejum (8 h) e suspensão de anticoagulantes
- [ ] Reserva de sala, microscópio e intensificador de imagem confirmada
- [ ] Termo de consentimento assinado

## No dia
- [ ] Conferir lateralidade e nível com imagem
- [ ] Checklist de cirurgia segura (OMS) aplicado pela enfermagem
`,
  },
  {
    title: "Fluxo de pré-autorização com convênios",
    category: "Faturamento",
    status: "active",
    version: 2,
    contentMd: `# Pré-autorização

1. Reunir pedido médico com CID-10, códigos CBHPM/TUSS e justificativa clínica.
2. Anexar laudos de imagem (RM/TC) com menos de 6 meses.
3. Para OPME, enviar **3 cotações** de fornecedores diferentes.
4. Registrar o número da guia e mover o card para **Enviado Pré-aut** no pipeline.
5. Cobrar retorno do convênio em 5 dias úteis; se negado, avaliar recurso com o cirurgião.
`,
  },
  {
    title: "Protocolo de cirurgia segura",
    category: "Cirúrgico",
    status: "active",
    version: 4,
    contentMd: `# Cirurgia segura

Baseado no protocolo da OMS, em três momentos:

- **Antes da indução anestésica:** identidade, sítio cirúrgico, consentimento, alergias, via aérea.
- **Antes da incisão:** apresentação da equipe, antibioticoprofilaxia, imagens disponíveis.
- **Antes de sair da sala:** contagem de compressas e instrumentais, identificação de peças.
`,
  },
  {
    title: "Confirmação de consultas",
    category: "Atendimento",
    status: "active",
    version: 1,
    contentMd: `# Confirmação de consultas

- Enviar a mensagem **Lembrete 24h antes** para todos os pacientes com opt-in de WhatsApp.
- Ligar para quem não confirmou até as 16h do dia anterior.
- Marcar como *Cancelada* quem desmarcar e oferecer o horário à lista de espera.
`,
  },
  {
    title: "Gestão de OPME: cotação, recebimento e rastreabilidade",
    category: "Suprimentos",
    status: "draft",
    version: 1,
    contentMd: `# OPME

- Toda OPME deve ter registro ANVISA válido.
- Etiquetas de rastreabilidade coladas na descrição cirúrgica e no prontuário.
- Materiais consignados devolvidos em até 48 h.
`,
  },
  {
    title: "Atendimento telefônico (versão 2022)",
    category: "Atendimento",
    status: "archived",
    version: 2,
    contentMd: `# Atendimento telefônico

Substituído pelo fluxo de confirmação por WhatsApp.
`,
  },
];

export const REFERRERS: Array<{ name: string; specialty: string; crm: string | null; email: string; notes: string | null }> = [
  { name: "Dr. Eduardo Magalhães", specialty: "Ortopedia", crm: "CRM-SP 76543", email: "eduardo.magalhaes@ortoclinica.demo", notes: "Encaminha principalmente hérnias discais." },
  { name: "Dra. Lúcia Falcão", specialty: "Clínica Médica", crm: "CRM-SP 102938", email: "lucia.falcao@clinicavida.demo", notes: null },
  { name: "Dra. Renata Guimarães", specialty: "Neurologia", crm: "CRM-SP 118274", email: "renata.guimaraes@neurocentro.demo", notes: "Casos de epilepsia refratária e tumores." },
  { name: "Dr. Marcelo Simões", specialty: "Reumatologia", crm: "CRM-SP 93412", email: "marcelo.simoes@reumato.demo", notes: null },
  { name: "Fisio Movimento – Dra. Priscila Antunes", specialty: "Fisioterapia", crm: null, email: "contato@fisiomovimento.demo", notes: "CREFITO-3 145678-F." },
  { name: "Dr. Hélio Brandão", specialty: "Medicina da Dor", crm: "CRM-SP 87001", email: "helio.brandao@dor.demo", notes: null },
  { name: "UBS Vila Mariana", specialty: "Atenção Básica (SUS)", crm: null, email: "ubs.vilamariana@prefeitura.demo", notes: "Encaminhamentos via regulação (CROSS)." },
];
