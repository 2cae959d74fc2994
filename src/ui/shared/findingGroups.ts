// Grouping and counting are in analysis, so the load worker can do both for a huge rollout's findings
// before the page sees them.
export { groupFindings, rowCounts, severityCounts } from '../../analysis';
