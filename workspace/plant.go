package workspace

import "github.com/syncsim/syncsim/workspace/internal/plant"

// init hands workspace/planttest its way to build a workspace with bugs
// planted, without an exported field or function here.
func init() {
	plant.New = func(opts any, bugs plant.Set) (any, error) {
		o, ok := opts.(Options)
		if !ok {
			panic("workspace: plant.New wants a workspace.Options")
		}
		return newWorkspace(o, bugs)
	}
}
