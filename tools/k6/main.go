// Command k6 is k6 v2 (pinned in go.mod) with this project's own extension, k6/x/harness, built in.
package main

import (
	"go.k6.io/k6/v2/cmd"

	// Registers k6/x/harness: the cap on response bodies the load scripts apply.
	_ "event-api-harness/tools/k6/harness"
)

func main() {
	cmd.Execute()
}
