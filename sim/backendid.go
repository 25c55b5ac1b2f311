package sim

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BackendLabel is backend i's label, "b<i>": how scenario files, random
// stream labels and NoRuntimeID name it whatever id it has.
func BackendLabel(i int) string { return "b" + strconv.Itoa(i) }

// BackendID is the id of backend i: ids[i], or its label when ids is nil.
func BackendID(ids []string, i int) string {
	if ids == nil {
		return BackendLabel(i)
	}
	return ids[i]
}

// ValidBackendIDs checks ids for n backends: one each, distinct, and each
// one token of the trace (no white space, control character, BOM, '.', ',', '=',
// '#', '"', '{' or '}', valid UTF-8): actor names end in the id after a
// '.', and trace fields and file keys are split at the others. Case
// matters: "Main" and "main" are two backends.
func ValidBackendIDs(ids []string, n int) error {
	if len(ids) != n {
		return errors.New("expected " + strconv.Itoa(n) + " backend ids, got " + strconv.Itoa(len(ids)))
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		switch {
		case id == "":
			return errors.New("an empty backend id")
		case !utf8.ValidString(id):
			return errors.New("backend id " + strconv.Quote(id) + " is not valid UTF-8")
		case strings.ContainsFunc(id, badIDRune):
			return errors.New("backend id " + strconv.Quote(id) + " holds a space, a control character or one of . , = # \" { }")
		case seen[id]:
			return errors.New("backend id " + strconv.Quote(id) + " given twice")
		}
		seen[id] = true
	}
	return nil
}

func badIDRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == 0xfeff || strings.ContainsRune(".,=#\"{}", r)
}
