export { type AutomationService, createAutomationService, type SchedulePreview } from './automationService'
export { AUTOMATIONS_FILE_NAME, type AutomationStore, openAutomationStore } from './automationStore'
export { checkChange, checkDraft, type DraftContext } from './checkDraft'
export { matchesFileTrigger } from './fileTriggers'
export { runNotification } from './runNotification'
export {
  type AutomationRunner,
  type AutomationRunnerOptions,
  createAutomationRunner,
  type MailWatch,
  type MatchedMail,
  type Timers,
  type UnattendedExecutor,
} from './runner'
export { checkCron, lastSlotBetween, nextRuns, parseSchedule, plainFormToCron } from './schedule'
export type { AutomationsToolsetEnvironment } from './toolset/automationsToolset'

/** The `automations` toolset, loaded on demand. */
export async function loadAutomationsToolset(
  env: import('./toolset/automationsToolset').AutomationsToolsetEnvironment,
) {
  const { createAutomationsToolset } = await import('./toolset/automationsToolset')
  return createAutomationsToolset(env)
}
export { automationHandlers } from './automationHandlers'
export { describeTrigger } from './describeTrigger'
