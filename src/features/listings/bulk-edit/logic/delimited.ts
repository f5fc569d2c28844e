/** Moved to src/lib/delimited.ts (the orders export uses it too); re-exported for the bulk editor. */
export * from '../../../../lib/delimited';
