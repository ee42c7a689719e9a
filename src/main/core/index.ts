export { type BureauCore, type CoreOptions, composeCore } from './composeCore'
