export { contentTypeOf } from './contentType'
export { APP_DIR_NAME, defaultCacheDir, defaultDataDir, defaultWorkspaceDir } from './defaultPaths'
export { ensureWritableDir } from './ensureWritableDir'
export { locateRendererDir } from './rendererDir'
