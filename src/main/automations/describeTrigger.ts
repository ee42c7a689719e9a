import type { AutomationTrigger } from '../../shared/automations'

/** How the model and the card show a trigger. */
export function describeTrigger(trigger: AutomationTrigger): string {
  switch (trigger.kind) {
    case 'schedule':
      return `${trigger.text ?? `cron ${trigger.cron}`} (${trigger.timeZone ?? 'UTC'})`
    case 'file':
      return `a file ${trigger.glob} in ${trigger.folder}`
    case 'mail':
      return `new mail in ${trigger.folder}${trigger.from ? ` from ${trigger.from}` : ''}${trigger.subject ? ` with "${trigger.subject}"` : ''}`
    default:
      return 'run by hand only'
  }
}
