// Command roundtrip reads ctxpact documents with the Go types quicktype generated from
// schemas/ and writes them back (tests/spec/test_codegen.py).
//
// Standard input: one JSON object a line, {"schema": NAME, "document": DOCUMENT}. Standard
// output: one line for each, {"document": WRITTEN} or {"error": MESSAGE}. The types are
// listed in types.go, which the test writes beside this file.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

type request struct {
	Schema   string          `json:"schema"`
	Document json.RawMessage `json:"document"`
}

// roundTrip decodes a document into the generated type of its schema and encodes it again.
// Numbers are decoded as json.Number, so that an item's number keeps its value and form.
func roundTrip(schema string, document []byte) ([]byte, error) {
	newValue, known := types[schema]
	if !known {
		return nil, fmt.Errorf("no generated type for the schema %q", schema)
	}
	value := newValue()
	decoder := json.NewDecoder(bytes.NewReader(document))
	decoder.UseNumber()
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(value); err != nil {
		return nil, err
	}
	return json.Marshal(value)
}

func main() {
	input := bufio.NewScanner(os.Stdin)
	input.Buffer(make([]byte, 1<<20), 1<<30)
	output := bufio.NewWriter(os.Stdout)
	defer output.Flush()
	for input.Scan() {
		var line request
		if err := json.Unmarshal(input.Bytes(), &line); err != nil {
			fmt.Fprintln(os.Stderr, "roundtrip: not a request line:", err)
			os.Exit(2)
		}
		written, err := roundTrip(line.Schema, line.Document)
		if err != nil {
			message, _ := json.Marshal(err.Error())
			fmt.Fprintf(output, "{\"error\":%s}\n", message)
			continue
		}
		fmt.Fprintf(output, "{\"document\":%s}\n", written)
	}
	if err := input.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "roundtrip:", err)
		os.Exit(2)
	}
}
