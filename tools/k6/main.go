// Command k6 is k6 v2 (pinned in go.mod) with this project's own extensions built in: k6/x/harness and the output
// harness-samples.
package main

import (
	"go.k6.io/k6/v2/cmd"

	// Registers k6/x/harness: the cap on response bodies the load scripts apply.
	_ "event-api-harness/tools/k6/harness"
	// Registers the output harness-samples: the samples a run's baseline record is built from.
	_ "event-api-harness/tools/k6/samples"
)

func main() {
	cmd.Execute()
}
