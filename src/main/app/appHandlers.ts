import type { AppInfo, HostKind } from '../../shared/ipc'
import { APP_NAME, APP_VERSION } from '../appVersion'
import type { NoticeCenter } from '../platform'

export function appInfo(host: HostKind): AppInfo {
  return { name: APP_NAME, version: APP_VERSION, host, workspaceRoot: '/' }
}

export function appHandlers(deps: { host: HostKind; notices: NoticeCenter }) {
  return {
    'app.info': () => appInfo(deps.host),
    'app.notices': () => deps.notices.list(),
  }
}
