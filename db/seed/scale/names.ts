import { FEMALE_NAMES, MALE_NAMES } from "../catalog";

/**
 * Names for the scale data set, weighted the way a Brazilian city's population is: a handful of
 * very common surnames, a middle band, and a long tail of rare ones. The weights are tuned so
 * that about 1 patient in 20 carries "Silva" (the search the issue benchmarks). No first name or
 * other surname contains "silva" as a substring ("Silvana" would), so that share stays exact.
 */

export const SCALE_FEMALE_NAMES: readonly string[] = [
  ...FEMALE_NAMES,
  "Adriana", "Aline", "Amanda", "Bruna", "Carla", "Carolina", "Cláudia", "Cristina", "Daniela", "Eliane",
  "Elisângela", "Fabiana", "Francisca", "Giovana", "Isabel", "Jéssica", "Juliana", "Larissa", "Luciana", "Mariana",
  "Marlene", "Michele", "Priscila", "Regina", "Renata", "Rita", "Sandra", "Simone", "Tereza", "Vanessa",
  "Yasmin", "Alice", "Laura", "Manuela", "Valentina", "Heloísa", "Sofia", "Rosa", "Irene", "Neusa",
];

export const SCALE_MALE_NAMES: readonly string[] = [
  ...MALE_NAMES,
  "Alexandre", "Bruno", "Carlos", "Daniel", "Diego", "Eduardo", "Felipe", "Francisco", "Gabriel", "Guilherme",
  "Gustavo", "Igor", "Jorge", "Leandro", "Leonardo", "Lucas", "Luiz", "Manoel", "Mateus", "Maurício",
  "Nelson", "Pedro", "Renato", "Ricardo", "Roberto", "Rodrigo", "Thiago", "Valdir", "Wagner", "Wellington",
  "Arthur", "Davi", "Heitor", "Bernardo", "Miguel", "Samuel", "Enzo", "Edson", "Osvaldo", "Severino",
];

/**
 * Surname → relative weight. The top four are the "common words" a search test relies on: Silva
 * is about 2.7 % of surname slots, and a name has two surnames on average, so ~5 % of patients.
 */
export const SCALE_SURNAMES: ReadonlyArray<readonly [string, number]> = [
  ["Silva", 38],
  ["Santos", 34],
  ["Oliveira", 31],
  ["Souza", 29],
  // Common.
  ...(
    [
      "Pereira", "Lima", "Ferreira", "Costa", "Rodrigues", "Almeida", "Nascimento", "Carvalho", "Gomes", "Martins",
      "Araújo", "Ribeiro", "Alves", "Barbosa", "Rocha", "Dias", "Moreira", "Cardoso", "Teixeira", "Mendes",
    ] as const
  ).map((name, i) => [name, 30 - i] as const),
  // Middling.
  ...(
    [
      "Gonçalves", "Conceição", "Fernandes", "Lopes", "Monteiro", "Vieira", "Azevedo", "Castro", "Moraes", "Nunes",
      "Correia", "Pinto", "Freitas", "Machado", "Ramos", "Reis", "Cunha", "Melo", "Batista", "Borges",
      "Campos", "Cavalcanti", "Coelho", "Duarte", "Farias", "Guimarães", "Leite", "Macedo", "Magalhães", "Medeiros",
      "Miranda", "Moura", "Neves", "Nogueira", "Pinheiro", "Queiroz", "Sampaio", "Siqueira", "Tavares", "Xavier",
    ] as const
  ).map((name) => [name, 12] as const),
  // Rare.
  ...(
    [
      "Assunção", "Brandão", "Peixoto", "Falcão", "Simões", "Damião", "Aragão", "Romão", "Estevão", "Prudêncio",
      "Antunes", "Sá", "Mendonça", "Abreu", "Aguiar", "Amaral", "Bastos", "Bezerra", "Brito", "Fonseca",
      "Guerra", "Leal", "Pacheco", "Paiva", "Rezende", "Sales", "Torres", "Valente", "Vasconcelos", "Albuquerque",
      "Bittencourt", "Camargo", "Dantas", "Espíndola", "Fagundes", "Gusmão", "Holanda", "Jardim", "Lacerda", "Mascarenhas",
      "Nóbrega", "Ornelas", "Paranhos", "Quintela", "Rangel", "Sardinha", "Tolentino", "Uchôa", "Valadares", "Wanderley",
      "Zanetti", "Nakamura", "Tanaka", "Yamamoto", "Suzuki", "Rossi", "Bianchi", "Ferrari", "Colombo", "Schmidt",
      "Müller", "Schneider", "Haddad", "Khoury", "Nassif", "Maluf", "Kowalski", "Becker", "Weber", "Hoffmann",
      "Ishikawa", "Kobayashi", "Esposito", "Romano", "Greco", "Barros", "Bueno", "Caldeira", "Figueiredo", "Godoy",
    ] as const
  ).map((name) => [name, 5] as const),
];

/** Particles some surnames take in front ("da Silva", "dos Santos"). */
export const SURNAME_PARTICLES: Readonly<Record<string, string>> = {
  Silva: "da",
  Santos: "dos",
  Oliveira: "de",
  Souza: "de",
  Conceição: "da",
  Assunção: "da",
  Nascimento: "do",
};

/** Cumulative weights for O(log n) weighted picks in the hot loops. */
export class WeightedTable<T> {
  private readonly cumulative: Float64Array;
  readonly values: T[];
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    this.values = entries.map(([v]) => v);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, w], i) => (this.cumulative[i] = sum += w));
    this.total = sum;
  }

  /** The value whose weight band contains `u` ∈ [0, 1). */
  at(u: number): T {
    const target = u * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return this.values[lo];
  }
}
