# Saved by fluxsh. Replay with: fluxsh test FILE
load counter
load todos
load search
dispatch add x
+ todos.todos[0]: {"id":1,"title":"x","done":false}
~ todos.nextID: 1 -> 2
use counter
expect . == {"count":0}
use todos
expect . == {"todos":[{"id":1,"title":"x","done":false}],"filter":"all","nextID":2}
use search
expect . == {"query":"","isFetching":false,"page":0,"hasNextPage":false,"repositories":[]}
