// Public API of the local model manager: the catalogue, installed models, downloads and imports.
export { type CatalogueEntry, loadCatalogue } from './catalogue'
export { type DownloadProgress, downloadFile } from './download'
export { createModelManager, type ModelManager, modelHandlers } from './modelManager'
export { type InstalledModel, ModelStore } from './modelStore'
export { pullModel } from './pullModel'
export { type TrackedProgress, trackDownload } from './trackDownload'
