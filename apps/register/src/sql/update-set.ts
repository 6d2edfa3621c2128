/**
 * The SET list of a partial UPDATE, with numbered parameters after the ones the WHERE clause
 * uses ($1 the row id, $2 the workspace id).
 */
export class UpdateSet {
  readonly params: unknown[];
  private readonly assignments: string[] = [];

  constructor(id: string, workspaceId: string) {
    this.params = [id, workspaceId];
  }

  set(column: string, value: unknown): void {
    this.params.push(value);
    this.assignments.push(`${column} = $${this.params.length}`);
  }

  /** An assignment with no parameter, such as `assigned_at = now()`. */
  raw(assignment: string): void {
    this.assignments.push(assignment);
  }

  get empty(): boolean {
    return this.assignments.length === 0;
  }

  /** `UPDATE <table> SET ..., updated_at = now() WHERE id = $1 AND workspace_id = $2`. */
  statement(table: string): string {
    return `UPDATE ${table} SET ${this.assignments.join(', ')}, updated_at = now()
      WHERE id = $1 AND workspace_id = $2`;
  }
}
