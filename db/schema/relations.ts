import { relations } from "drizzle-orm";
import { profiles, userRoles, users } from "./auth";
import { appointments, doctors, patients } from "./clinical";
import { automationRules, messages, messageTemplates } from "./communication";
import { financialTransactions } from "./finance";
import { hospitals, medicalCodes, payers, suppliers } from "./master-data";
import { orders } from "./operations";
import { pipelineStages, surgeries, surgeryFeeLines } from "./surgery";
import { subtasks, tasks } from "./tasks";

/** Relations for `db.query.*.findMany({ with: … })`. They add no SQL constraints (those are the FKs). */

export const usersRelations = relations(users, ({ one }) => ({
  profile: one(profiles, { fields: [users.id], references: [profiles.id] }),
  role: one(userRoles, { fields: [users.id], references: [userRoles.userId] }),
  doctor: one(doctors, { fields: [users.id], references: [doctors.userId] }),
}));

export const profilesRelations = relations(profiles, ({ one }) => ({
  user: one(users, { fields: [profiles.id], references: [users.id] }),
}));

export const userRolesRelations = relations(userRoles, ({ one }) => ({
  user: one(users, { fields: [userRoles.userId], references: [users.id] }),
}));

export const patientsRelations = relations(patients, ({ many }) => ({
  appointments: many(appointments),
  surgeries: many(surgeries),
  tasks: many(tasks),
  orders: many(orders),
  messages: many(messages),
}));

export const doctorsRelations = relations(doctors, ({ one, many }) => ({
  user: one(users, { fields: [doctors.userId], references: [users.id] }),
  appointments: many(appointments),
  surgeries: many(surgeries),
  feeLines: many(surgeryFeeLines),
}));

export const appointmentsRelations = relations(appointments, ({ one }) => ({
  patient: one(patients, { fields: [appointments.patientId], references: [patients.id] }),
  doctor: one(doctors, { fields: [appointments.doctorId], references: [doctors.id] }),
}));

export const surgeriesRelations = relations(surgeries, ({ one, many }) => ({
  patient: one(patients, { fields: [surgeries.patientId], references: [patients.id] }),
  doctor: one(doctors, { fields: [surgeries.doctorId], references: [doctors.id] }),
  hospitalRef: one(hospitals, { fields: [surgeries.hospitalId], references: [hospitals.id] }),
  payer: one(payers, { fields: [surgeries.payerId], references: [payers.id] }),
  stageHistory: many(pipelineStages),
  feeLines: many(surgeryFeeLines),
  transactions: many(financialTransactions),
  tasks: many(tasks),
}));

export const pipelineStagesRelations = relations(pipelineStages, ({ one }) => ({
  surgery: one(surgeries, { fields: [pipelineStages.surgeryId], references: [surgeries.id] }),
  movedByUser: one(users, { fields: [pipelineStages.movedBy], references: [users.id] }),
}));

export const surgeryFeeLinesRelations = relations(surgeryFeeLines, ({ one }) => ({
  surgery: one(surgeries, { fields: [surgeryFeeLines.surgeryId], references: [surgeries.id] }),
  doctor: one(doctors, { fields: [surgeryFeeLines.doctorId], references: [doctors.id] }),
  medicalCode: one(medicalCodes, { fields: [surgeryFeeLines.medicalCodeId], references: [medicalCodes.id] }),
}));

export const financialTransactionsRelations = relations(financialTransactions, ({ one }) => ({
  surgery: one(surgeries, { fields: [financialTransactions.surgeryId], references: [surgeries.id] }),
}));

export const hospitalsRelations = relations(hospitals, ({ many }) => ({
  surgeries: many(surgeries),
}));

export const payersRelations = relations(payers, ({ many }) => ({
  surgeries: many(surgeries),
}));

export const suppliersRelations = relations(suppliers, ({ many }) => ({
  orders: many(orders),
}));

export const medicalCodesRelations = relations(medicalCodes, ({ many }) => ({
  feeLines: many(surgeryFeeLines),
}));

export const tasksRelations = relations(tasks, ({ one, many }) => ({
  patient: one(patients, { fields: [tasks.patientId], references: [patients.id] }),
  surgery: one(surgeries, { fields: [tasks.surgeryId], references: [surgeries.id] }),
  assignee: one(users, { fields: [tasks.assigneeId], references: [users.id] }),
  subtasks: many(subtasks),
}));

export const subtasksRelations = relations(subtasks, ({ one }) => ({
  task: one(tasks, { fields: [subtasks.taskId], references: [tasks.id] }),
}));

export const ordersRelations = relations(orders, ({ one }) => ({
  patient: one(patients, { fields: [orders.patientId], references: [patients.id] }),
  supplier: one(suppliers, { fields: [orders.supplierId], references: [suppliers.id] }),
}));

export const messageTemplatesRelations = relations(messageTemplates, ({ many }) => ({
  messages: many(messages),
  automationRules: many(automationRules),
}));

export const messagesRelations = relations(messages, ({ one }) => ({
  patient: one(patients, { fields: [messages.patientId], references: [patients.id] }),
  template: one(messageTemplates, { fields: [messages.templateId], references: [messageTemplates.id] }),
}));

export const automationRulesRelations = relations(automationRules, ({ one }) => ({
  template: one(messageTemplates, { fields: [automationRules.templateId], references: [messageTemplates.id] }),
}));
