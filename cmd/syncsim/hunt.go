package main

func cmdHunt(e env, args []string) int {
	return usageError(e, "hunt", "not wired yet")
}
