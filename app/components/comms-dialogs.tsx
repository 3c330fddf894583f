import { lazyComponent } from "~/components/lazy-component";

export type { RuleDraft, TemplateDraft } from "./comms-dialogs.lazy";

/** The template, rule and reply dialogs of the communication centre, loaded on first open (comms-dialogs.lazy.tsx; see lazyComponent). */
const templateDialog = lazyComponent(() => import("./comms-dialogs.lazy"), "TemplateDialog");
const ruleDialog = lazyComponent(() => import("./comms-dialogs.lazy"), "RuleDialog");
const replyDialog = lazyComponent(() => import("./comms-dialogs.lazy"), "ReplyDialog");
export const TemplateDialog = templateDialog.Component;
export const RuleDialog = ruleDialog.Component;
export const ReplyDialog = replyDialog.Component;
await templateDialog.preloadIfShown("[data-url-dialog]");
await ruleDialog.preloadIfShown("[data-url-dialog]");
await replyDialog.preloadIfShown("[data-url-dialog]");
