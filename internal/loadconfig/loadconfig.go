package loadconfig

import (
	"fmt"
	"strconv"
	"strings"
)

// Match is the JSON object of one match entry: agents per team on a
// size×size grid for steps steps.
func Match(agents, size, steps int) string {
	return fmt.Sprintf(`{
  "steps": %d, "randomSeed": 17, "randomFail": 1, "entities": {"standard": %d}, "clusterBounds": [1,3],
  "roles": [
   {"name":"default","vision":5,"actions":["skip","move","rotate","adopt","detach","clear"],"speed":[1],"clear":{"chance":0.7,"maxDistance":1}},
   {"name":"worker","actions":["request","attach","connect","disconnect","submit"],"speed":[2,1,1,0]},
   {"name":"constructor","actions":["request","attach","connect","disconnect","submit"],"speed":[1]},
   {"name":"explorer","vision":7,"actions":["attach","survey"],"speed":[3,0]},
   {"name":"digger","speed":[1,0],"clear":{"chance":1,"maxDistance":5}}],
  "clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
  "clearDamage": [32,16,8,4,2,1], "attachLimit": 10,
  "grid": {"width": %d, "height": %d, "instructions": [["cave",0.45,3,5,4]],
           "goals": {"number":7,"size":[1,3],"moveProbability":0.1}, "roleZones": {"number":5,"size":[3,5]}},
  "blockTypes": [3,3], "dispensers": [5,10],
  "tasks": {"size":[1,4],"concurrent":3,"iterations":[5,10],"maxDuration":[100,200]},
  "events": {"chance":15,"radius":[3,5],"warning":5,"create":[-3,1],"perimeter":2},
  "regulation": {"simultaneous":1,"chance":15,"subjects":[
   {"name":"Carry","announcement":[5,10],"duration":[5,10],"punishment":[10,10],"weight":10,"optional":{"quantity":[0,1]}},
   {"name":"Adopt","announcement":[40,50],"duration":[20,40],"punishment":[2,3],"weight":15,"optional":{"playing":50}}]}
 }`, steps, agents, size, size)
}

// Teams is the JSON object of the teams block: every team's accounts are
// agent<team><i> with password "1".
func Teams(names []string) string {
	entries := make([]string, len(names))
	for i, t := range names {
		entries[i] = strconv.Quote(t) + `:{"prefix":"agent","password":"1"}`
	}
	return "{" + strings.Join(entries, ",") + "}"
}
