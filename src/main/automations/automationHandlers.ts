import type { AutomationService } from './automationService'

/** The `automations.*` routes of the Automations page. */
export function automationHandlers(service: AutomationService) {
  return {
    'automations.list': () => service.summaries(),
    'automations.create': (input: unknown) => service.create(input),
    'automations.update': (input: { id: string; change: Record<string, unknown> }) =>
      service.update(input.id, input.change),
    'automations.delete': (input: { id: string }) => service.remove(input.id),
    'automations.setEnabled': (input: { id: string; enabled: boolean }) =>
      service.setEnabled(input.id, input.enabled),
    'automations.runNow': (input: { id: string }) => service.startNow(input.id),
    'automations.history': (input: { id: string }) => service.history(input.id),
    'automations.preview': (input: { schedule: string; timeZone?: string | undefined; count: number }) =>
      service.preview(input.schedule, input.timeZone, input.count),
  }
}
