import { pandasPivotSuite } from './pandasPivot'

pandasPivotSuite(50_000, 240_000)
