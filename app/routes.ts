import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

const AI_ASSISTANTS = ["dashboard", "triagem", "mensagens", "opme-copilot", "aprovacoes", "rag"];

/** SPEC §2 route table. Aliases (/config, /comunicacao …) point at the same module with their own id. */
export default [
  index("routes/index.tsx"),
  route("auth", "routes/auth.tsx"),
  route("logout", "routes/logout.tsx"),
  layout("routes/app-layout.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    route("patients", "routes/patients.tsx"),
    route("doctors", "routes/doctors.tsx"),
    route("appointments", "routes/appointments.tsx"),
    route("schedule", "routes/schedule.tsx"),
    route("surgeries", "routes/surgeries.tsx"),
    route("settings", "routes/settings.tsx"),
    route("config", "routes/settings.tsx", { id: "routes/config" }),
    ...AI_ASSISTANTS.map((slug) => route(`ia/${slug}`, "routes/ia.tsx", { id: `routes/ia/${slug}` })),
  ]),
  route("api/patients", "routes/api/patients.ts"),
  route("api/patients/:id", "routes/api/patient.ts"),
  route("api/doctors", "routes/api/doctors.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
