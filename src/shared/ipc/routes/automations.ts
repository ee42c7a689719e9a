import { z } from 'zod'
import { Automation, AutomationDraft, AutomationRun, AutomationSummary } from '../../automations'
import { route } from '../defineContract'

const Id = z.string().min(1).max(100)

export const SchedulePreview = z.object({
  cron: z.string(),
  text: z.string().optional(),
  timeZone: z.string(),
  next: z.array(z.string()),
})
export type SchedulePreview = z.infer<typeof SchedulePreview>

export const automationRoutes = {
  'automations.list': route({
    summary: 'Every automation with its next runs, last run, and whether it runs or waits now.',
    input: z.object({}).optional(),
    output: z.array(AutomationSummary),
  }),
  'automations.create': route({
    summary: 'Stores a new automation (schedule, folder and toolsets checked); returns it as stored.',
    input: AutomationDraft,
    output: Automation,
  }),
  'automations.update': route({
    summary: 'Changes some fields of an automation; returns it as stored.',
    input: z.object({ id: Id, change: AutomationDraft.partial() }),
    output: Automation,
  }),
  'automations.delete': route({
    summary: 'Deletes an automation and its run history; returns what was deleted.',
    input: z.object({ id: Id }),
    output: Automation,
  }),
  'automations.setEnabled': route({
    summary: 'Switches an automation on or off.',
    input: z.object({ id: Id, enabled: z.boolean() }),
    output: Automation,
  }),
  'automations.runNow': route({
    summary: 'Queues one unattended run now; false when its queue is full.',
    input: z.object({ id: Id }),
    output: z.object({ queued: z.boolean() }),
  }),
  'automations.history': route({
    summary: 'The runs of an automation, newest first (each with its conversation).',
    input: z.object({ id: Id }),
    output: z.array(AutomationRun),
  }),
  'automations.preview': route({
    summary: 'Checks a schedule (plain form or cron) and gives its next runs.',
    input: z.object({
      schedule: z.string().max(200),
      timeZone: z.string().max(100).optional(),
      count: z.number().int().min(1).max(20).default(5),
    }),
    output: SchedulePreview,
  }),
}

export const automationEvents = {
  /** The list, a run or a queue changed: the page reloads. */
  'automations.changed': z.object({}),
  /** A run ended: the notification (desktop, or the browser's when allowed). */
  'automations.runEnded': z.object({
    name: z.string(),
    run: AutomationRun,
    /** The host showed a system notification already (the desktop shell): the page shows none. */
    notified: z.boolean().optional(),
  }),
}
