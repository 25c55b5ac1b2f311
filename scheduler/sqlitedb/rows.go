package sqlitedb

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
)

// Rows is the result of Runner.Query, read as database/sql's Rows is:
// for rows.Next() { rows.Scan(...) }, then rows.Err(), and Close.
type Rows struct {
	rows driver.Rows
	row  []driver.Value // the current row, as the driver gave it
	err  error
	done bool
}

func newRows(rows driver.Rows) *Rows {
	return &Rows{rows: rows, row: make([]driver.Value, len(rows.Columns()))}
}

// Next moves to the next row and reports whether there is one.
func (rs *Rows) Next() bool {
	if rs.done {
		return false
	}
	if err := rs.rows.Next(rs.row); err != nil {
		if !errors.Is(err, io.EOF) {
			rs.err = err
		}
		rs.done = true
		return false
	}
	return true
}

// Err is the error that ended Next early, if any.
func (rs *Rows) Err() error { return rs.err }

// Close releases the rows (their statement is kept); closing twice is a
// no-op.
func (rs *Rows) Close() error {
	if rs.rows == nil {
		return nil
	}
	rs.done = true
	err := rs.rows.Close()
	rs.rows = nil
	return err
}

// Scan copies the current row into dest, one pointer a column; see
// assign for what each pointer type takes.
func (rs *Rows) Scan(dest ...any) error { return scanRow(rs.row, dest) }

func scanRow(row []driver.Value, dest []any) error {
	if len(dest) != len(row) {
		return fmt.Errorf("sqlitedb: scan: %d destinations for %d columns", len(dest), len(row))
	}
	for i, d := range dest {
		if err := assign(d, row[i]); err != nil {
			return fmt.Errorf("sqlitedb: scan column %d: %w", i, err)
		}
	}
	return nil
}

// Row is the result of Runner.QueryRow: the first row, read and closed
// when the query ran.
type Row struct {
	row []driver.Value
	err error // the query's error, or sql.ErrNoRows
}

// readRow reads the first row of rows, or the error that stands for it,
// and closes them.
func readRow(rows *Rows) *Row {
	r := &Row{}
	if rows.Next() {
		r.row = rows.row
	} else if r.err = rows.Err(); r.err == nil {
		r.err = sql.ErrNoRows
	}
	if err := rows.Close(); err != nil && r.err == nil {
		r.err = err
	}
	return r
}

// Scan copies the row into dest as Rows.Scan does; no row is
// sql.ErrNoRows, and the query's own error, if any, comes out here.
func (r *Row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return scanRow(r.row, dest)
}

// assign stores a driver value in dest. The values are SQLite's storage
// classes as the driver hands them over (int64, float64, string, []byte,
// nil); only lossless conversions are made, so a column of the wrong class
// is an error rather than a silent reinterpretation:
//
//   - *any takes the value as it is;
//   - *int64 and *int take an integer, *bool an integer 0 or 1;
//   - *string takes text;
//   - *[]byte takes a blob (or NULL, as nil) and keeps the driver's slice:
//     modernc copies every blob out of SQLite into a new slice that it never
//     touches again (conn.columnBlob), so it is the caller's to keep;
//   - a sql.Scanner (sql.NullString, sql.NullInt64, ...) is handed the
//     value.
func assign(dest any, v driver.Value) error {
	switch d := dest.(type) {
	case *any:
		*d = v
		return nil
	case *int64:
		if n, ok := v.(int64); ok {
			*d = n
			return nil
		}
	case *int:
		if n, ok := v.(int64); ok && int64(int(n)) == n {
			*d = int(n)
			return nil
		}
	case *bool:
		if n, ok := v.(int64); ok && (n == 0 || n == 1) {
			*d = n == 1
			return nil
		}
	case *string:
		if s, ok := v.(string); ok {
			*d = s
			return nil
		}
	case *[]byte:
		switch b := v.(type) {
		case []byte:
			*d = b
			return nil
		case nil:
			*d = nil
			return nil
		}
	case sql.Scanner:
		return d.Scan(v)
	default:
		return fmt.Errorf("unsupported destination %T", dest)
	}
	return fmt.Errorf("cannot store %s %v in %T", StorageClass(v), v, dest)
}

// storageClass names the SQLite storage class a driver value came from.
func StorageClass(v driver.Value) string {
	switch v.(type) {
	case nil:
		return "null"
	case int64:
		return "integer"
	case float64:
		return "real"
	case string:
		return "text"
	case []byte:
		return "blob"
	}
	return fmt.Sprintf("%T", v)
}
