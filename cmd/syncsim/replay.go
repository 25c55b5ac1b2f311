package main

func cmdReplay(e env, args []string) int {
	return usageError(e, "replay", "not wired yet")
}
