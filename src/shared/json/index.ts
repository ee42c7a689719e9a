export { extractJsonObject, jsonObjectOf, parseLooseJson } from './modelJson'
