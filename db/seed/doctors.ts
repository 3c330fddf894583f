import type { BrazilUf } from "../../app/lib/documents";
import { doctorSearchText } from "../../app/models/doctor.server";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import { type DoctorSeed, DOCTORS } from "./catalog";
import { insertRows, type SeedContext } from "./context";
import { generateLandline, generateMobile } from "./documents";

export type SeededDoctor = DoctorSeed & { id: number; location: string };

export interface Staff {
  /** Doctors with a clinic agenda, in DOCTORS order; agenda and surgery drafts index into this. */
  surgeons: SeededDoctor[];
  anaesthetists: SeededDoctor[];
}

/** The practice's doctors; medico@sinapse.demo is linked to its doctors row. */
export function seedDoctors({ tx, random }: SeedContext, { doctorUserId }: Accounts): Staff {
  const doctorIds = insertRows(
    tx,
    schema.doctors,
    DOCTORS.map((d, i) => {
      const phone = i % 2 === 0 ? generateMobile(random) : generateLandline(random);
      return {
        name: d.name,
        specialty: d.specialty,
        crm: d.crm,
        crmUf: d.crmUf,
        phone,
        email: d.email,
        commissionRate: d.commissionRate,
        active: true,
        userId: d.email === "medico@sinapse.demo" ? doctorUserId : null,
        searchText: doctorSearchText({ name: d.name, specialty: d.specialty, crm: d.crm, crmUf: d.crmUf as BrazilUf, email: d.email, phone }),
      };
    }),
  );
  const doctors = DOCTORS.map((d, i) => ({
    ...d,
    id: doctorIds[i],
    location:
      d.area === "cranio"
        ? "Consultório Paulista – Av. Paulista, 1578, conj. 1204"
        : "Consultório Moema – Av. Ibirapuera, 2120, sala 51",
  }));
  return {
    surgeons: doctors.filter((d) => d.area !== "anestesia"),
    anaesthetists: doctors.filter((d) => d.area === "anestesia"),
  };
}
