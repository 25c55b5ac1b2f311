package sqlitedb

import (
	"path/filepath"
	"testing"
)

// The settings durability depends on are in force on a fresh connection.
func TestOpenSettings(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": "2", "busy_timeout": "5000"} {
		var got string
		if err := db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestOpenRefusesAmbiguousPaths(t *testing.T) {
	for _, p := range []string{"", "a?b.db", "a#b.db"} {
		if db, err := Open(p); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}
