import { appEvents, appRoutes } from './routes/app'
import { attachmentRoutes } from './routes/attachments'
import { automationEvents, automationRoutes } from './routes/automations'
import { browserRoutes } from './routes/browser'
import { calendarRoutes } from './routes/calendar'
import { chatEvents, chatRoutes } from './routes/chat'
import { documentRoutes } from './routes/documents'
import { emailRoutes } from './routes/email'
import { evalRoutes } from './routes/eval'
import { knowledgeEvents, knowledgeRoutes } from './routes/knowledge'
import { mcpEvents, mcpRoutes } from './routes/mcp'
import { memoryRoutes } from './routes/memory'
import { modelEvents, modelRoutes } from './routes/models'
import { previewRoutes } from './routes/preview'
import { providerRoutes } from './routes/providers'
import { settingsEvents, settingsRoutes } from './routes/settings'
import { uiRoutes } from './routes/ui'
import { voiceEvents, voiceRoutes } from './routes/voice'
import { workspaceEvents, workspaceRoutes } from './routes/workspace'

/**
 * The IPC contract: every route and event declared once. Main implements the routes
 * (a missing or extra handler is a compile error), both transports validate against it,
 * and the renderer's client is typed from it.
 */
export const routes = {
  ...appRoutes,
  ...chatRoutes,
  ...attachmentRoutes,
  ...settingsRoutes,
  ...providerRoutes,
  ...workspaceRoutes,
  ...uiRoutes,
  ...voiceRoutes,
  ...browserRoutes,
  ...evalRoutes,
  ...modelRoutes,
  ...knowledgeRoutes,
  ...documentRoutes,
  ...mcpRoutes,
  ...emailRoutes,
  ...memoryRoutes,
  ...calendarRoutes,
  ...automationRoutes,
  ...previewRoutes,
}

export const events = {
  ...appEvents,
  ...chatEvents,
  ...settingsEvents,
  ...workspaceEvents,
  ...voiceEvents,
  ...modelEvents,
  ...knowledgeEvents,
  ...mcpEvents,
  ...automationEvents,
}

export type Routes = typeof routes
export type Events = typeof events
export type RouteName = keyof Routes
export type EventName = keyof Events
