// Public API of the local model manager: the catalogue, installed models, downloads and imports.
export { loadCatalogue } from './catalogue'
export type { DownloadProgress } from './download'
export { type InstalledModel, ModelStore } from './modelStore'
export { pullModel } from './pullModel'
