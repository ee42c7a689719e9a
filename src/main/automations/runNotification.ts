import type { Automation, AutomationRun } from '../../shared/automations'
import type { DesktopNotification } from '../platform'

/** What the user is told when a run ends: the answer when it went well, else what went wrong. */
export function runNotification(automation: Automation, run: AutomationRun): DesktopNotification {
  const title = `Automation "${automation.name}"`
  const tag = `automation:${automation.id}`
  const cut = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text)
  if (run.status === 'ok') return { title, body: cut(run.message.trim() || 'Done.'), level: 'info', tag }
  const why =
    run.status === 'denied'
      ? `${run.denials.length} call(s) denied (${run.denials.map((d) => d.call).join(', ')})`
      : run.status
  return { title, body: cut(`${why}${run.error ? ` — ${run.error}` : ''}.`), level: 'warning', tag }
}
