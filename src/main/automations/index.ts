export { AUTOMATIONS_FILE_NAME, type AutomationStore, openAutomationStore } from './automationStore'
export { checkChange, checkDraft, type DraftContext } from './checkDraft'
export { matchesFileTrigger } from './fileTriggers'
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
