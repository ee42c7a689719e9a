// Public API of the local model manager: the catalogue, installed models, downloads and imports.
export {
  CATALOGUE_FILE_NAME,
  type CatalogueEntry,
  CatalogueEntrySchema,
  loadCatalogue,
  locateCatalogueFile,
} from './catalogue'
export { type DownloadOptions, type DownloadProgress, type DownloadResult, downloadFile } from './download'
export { checkGguf, type GgufSummary } from './ggufCheck'
export { type InstalledModel, idFromFileName, ModelStore, modelsDir, sha256File } from './modelStore'
export { type PullOptions, pullModel } from './pullModel'
