import { z } from 'zod'
import { type ChartOptions, LINE_STYLES, MARKER_STYLES, SERIES_TYPES } from '../charts/chartXml'

const SheetRange = z.string().min(1)

/** One series of add_chart / update_chart, each with its own ranges. */
export const ChartSeriesInput = z
  .object({
    name: z.string().optional().describe('Legend name as text'),
    name_ref: z.string().optional().describe('Or the cell holding the name, e.g. Data!B1'),
    values: SheetRange.describe(
      'One row or column of numbers, e.g. Data!B2:B13 (no sheet = the chart sheet)',
    ),
    categories: SheetRange.optional().describe(
      'Labels (scatter: x values), same length as values, e.g. Data!A2:A13',
    ),
    type: z.enum(SERIES_TYPES).optional().describe('Combo: draw this series as column, line or area'),
    secondary_axis: z.boolean().optional().describe('Column or line series on a second value axis'),
  })
  .strict()

/** The chart options both add_chart and update_chart take. */
export const chartOptionFields = {
  legend: z
    .enum(['top', 'bottom', 'left', 'right', 'none'])
    .optional()
    .describe('Default bottom (right for pie, doughnut)'),
  x_axis_title: z.string().optional(),
  y_axis_title: z.string().optional(),
  secondary_y_axis_title: z.string().optional().describe('Title of the secondary value axis'),
  data_labels: z.enum(['value', 'percent', 'none']).optional().describe('percent: pie and doughnut only'),
  trendline: z
    .enum(['linear', 'moving_average', 'none'])
    .optional()
    .describe('On every series; not for pie, doughnut or stacked charts'),
  grouping: z
    .enum(['clustered', 'stacked', 'percent_stacked'])
    .optional()
    .describe('Column, bar, line, area: side by side (default), stacked, stacked to 100 %'),
  gap_width: z.number().int().min(0).max(500).optional().describe('Bars: gap between groups, % of a bar'),
  overlap: z.number().int().min(-100).max(100).optional().describe('Bars: overlap within a group, %'),
  markers: z.boolean().optional().describe('Line: markers on the points'),
  marker_style: z.enum(MARKER_STYLES).optional().describe('Line, scatter: marker shape'),
  line_style: z.enum(LINE_STYLES).optional().describe('Line: dash'),
  smooth: z.boolean().optional().describe('Line: smooth curves'),
}

type OptionArgs = { [K in keyof typeof chartOptionFields]?: z.infer<(typeof chartOptionFields)[K]> }

export function chartOptions(args: OptionArgs): ChartOptions {
  return {
    legend: args.legend,
    xAxisTitle: args.x_axis_title,
    yAxisTitle: args.y_axis_title,
    secondaryAxisTitle: args.secondary_y_axis_title,
    dataLabels: args.data_labels,
    trendline: args.trendline,
    grouping: args.grouping,
    gapWidth: args.gap_width,
    overlap: args.overlap,
    markers: args.markers,
    markerStyle: args.marker_style,
    lineStyle: args.line_style,
    smooth: args.smooth,
  }
}
