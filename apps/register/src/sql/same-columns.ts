/**
 * `true` when a row type written out by hand and the entity columns it stands for accept each
 * other's values, `false` otherwise; `Checked` compiles with `true` only. For the row types of
 * custody/, which lies below assets/ and people/ and so cannot import their entities: the store
 * that can holds its entity to them, and a column changed in the entity fails to compile until
 * the row follows (docs/adr/0009: a row type cannot say what the table does not).
 */
export type SameColumns<Row, Columns> = [Row] extends [Columns]
  ? [Columns] extends [Row]
    ? true
    : false
  : false;

export type Checked<T extends true> = T;
